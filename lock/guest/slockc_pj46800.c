/* pj46800: the simple lock with APAR PJ46800. A waiter spins on plain loads of the
   lock word (its line stays read-only in every waiter's cache: no transfers while
   the lock is held) and issues CSG only when the word reads free. After
   slock_spin_limit spins without getting the lock it gives up control: it counts
   itself among the lock's sleepers and waits on the lock word (TPF_SVC_WORD_WAIT),
   so its I-stream runs other work or goes idle; the releaser, seeing sleepers,
   wakes one, which then competes again. The count is kept beside the word (line 0)
   and changed with LAAG; the releaser's store of 0 is serialized before its look
   at the count, and the waiter's count before the control program's check of the
   word, so a release between the two is never missed. */
#include <simplelock.h>
#include <tpf.h>

void slockc_pj46800_lock(simplelock_t *l) {
  uint64_t attempts = 0, failures = 0, spins = 0, give_ups = 0, waited_since = 0;
  const long limit = slock_spin_limit > 0 ? slock_spin_limit : 1;
  long n = limit; /* spins left before giving up: every release seen does not reset it */
  for (;;) {
    if (l->word == 0) {
      ++attempts;
      if (__sync_bool_compare_and_swap(&l->word, 0, 1)) break;
      ++failures;
    }
    if (waited_since == 0) waited_since = slock_tod();
    const long before = n;
    while (l->word != 0 && --n > 0) continue; /* read-only spin */
    spins += (uint64_t)(before - n);
    if (n <= 0) {
      ++give_ups;
      slock_add(&l->sleepers, 1);
      tpf_word_wait(&l->word, 1); /* returns at once if it was released meanwhile */
      slock_add(&l->sleepers, -1);
      n = limit;
    }
  }
  slock_acquired(l, attempts > 1 || spins != 0 || give_ups != 0, spins, attempts, failures, give_ups, waited_since);
}

void slockc_pj46800_unlock(simplelock_t *l) {
  slock_releasing(l);
  __sync_synchronize(); /* every store of the critical section before the release */
  l->word = 0;
  slock_serialize();
  if (l->sleepers != 0) tpf_word_wake(&l->word, 1);
}
