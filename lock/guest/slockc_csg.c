/* csg-loop: the simple lock before APAR PJ46800. A waiter retries CSG until it
   wins. Each CSG needs the lock word's line exclusive, so with several I-streams
   waiting, every attempt takes the line from the last one that tried (a line
   transfer), and the holder's release must take it back too. It never gives up
   control: a waiting ECB holds its I-stream until it gets the lock (or is
   time-sliced). */
#include <simplelock.h>

void slockc_csg_lock(simplelock_t *l) {
  uint64_t attempts = 1, failures = 0, waited_since = 0;
  if (!__sync_bool_compare_and_swap(&l->word, 0, 1)) {
    waited_since = slock_tod();
    do ++attempts, ++failures;
    while (!__sync_bool_compare_and_swap(&l->word, 0, 1));
  }
  slock_acquired(l, failures != 0, 0, attempts, failures, 0, waited_since);
}

void slockc_csg_unlock(simplelock_t *l) {
  slock_releasing(l);
  __sync_synchronize(); /* every store of the critical section before the release */
  l->word = 0;
}
