/* queued: an MCS queue lock, our own step beyond APAR PJ46800. The lock word is the
   tail of a queue of waiters' nodes. A waiter claims a node of the shared pool,
   swaps itself in as the tail (a CSG loop on the lock word: one CSG when nobody
   races it), links itself behind its predecessor and spins on its own node's
   `locked` word, a line no other waiter reads. The holder hands the lock to its
   successor with one store into the successor's node, in arrival order (FIFO), so
   a release moves one line to one waiter instead of every waiter's copy.

   Node index + 1 is stored (0 means none). A waiter that has spun slock_spin_limit
   times gives up control but stays in the queue: it marks its node asleep and waits
   on its `locked` word (TPF_SVC_WORD_WAIT); the predecessor's hand-over stores 0
   there and, seeing the node asleep, wakes it. (The weakness of any queue lock: the
   lock is handed to a waiter that may not be running, and the queue behind it waits
   for its I-stream to dispatch it.) To keep that wait off the lock's critical path,
   a releaser that has handed over also wakes the waiter behind its successor and
   marks it head: next in line, it spins up to SLOCK_HEAD_ROUNDS times the spin
   limit instead of giving up, so it is running when its turn comes.

   A node is claimed with CS on its owner word, starting from the ECB's number
   modulo the pool size (kept in the process's static storage, one ECB_INFO service
   per ECB), so ECBs rarely probe and a node's line usually stays with its ECB's
   I-stream. If all nodes are in use the ECB gives up control and tries again. */
#include <simplelock.h>
#include <tpf.h>

#define QNODE(i) ((struct slock_qnode *)(TPF_EVM_SHARED + TPF_SHARED_SLOCK_QNODES) + (i))

static uint64_t slockc_queued_ecb; /* this process's ECB number (0: not asked yet) */

static uint64_t slockc_queued_claim(uint64_t *attempts, uint64_t *failures, uint64_t *give_ups) {
  uint64_t me = slockc_queued_ecb;
  if (me == 0) me = slockc_queued_ecb = (uint64_t)tpf_ecb_info(TPF_INFO_ECB);
  for (;;) {
    for (uint64_t k = 0; k < SLOCK_QNODES; ++k) {
      uint64_t idx = (me + k) % SLOCK_QNODES;
      struct slock_qnode *q = QNODE(idx);
      if (q->owner != 0) continue;
      ++*attempts;
      if (__sync_bool_compare_and_swap(&q->owner, 0, me)) return idx + 1;
      ++*failures;
    }
    ++*give_ups; /* every node is some waiter's: wait for one to be freed */
    tpf_defrc();
  }
}

void slockc_queued_lock(simplelock_t *l) {
  uint64_t attempts = 0, failures = 0, spins = 0, give_ups = 0, contended = 0, waited_since = 0;
  uint64_t me = slockc_queued_claim(&attempts, &failures, &give_ups);
  struct slock_qnode *q = QNODE(me - 1);
  q->next = 0;
  q->head = 0;
  q->locked = 1;
  /* Swap ourselves in as the tail. */
  uint64_t pred = l->word;
  for (;;) {
    ++attempts;
    uint64_t seen = __sync_val_compare_and_swap(&l->word, pred, me);
    if (seen == pred) break;
    ++failures;
    pred = seen;
  }
  if (pred != 0) {
    contended = 1;
    waited_since = slock_tod();
    QNODE(pred - 1)->next = me;
    const long limit = slock_spin_limit > 0 ? slock_spin_limit : 1;
    long n = limit, head_rounds = 0;
    while (q->locked) {
      ++spins;
      if (--n == 0) {
        if (q->head && head_rounds < SLOCK_HEAD_ROUNDS) {
          ++head_rounds;
          n = limit;
          continue;
        }
        ++give_ups;
        q->asleep = 1;
        slock_serialize(); /* asleep before the control program's look at `locked` */
        tpf_word_wait(&q->locked, 1);
        q->asleep = 0;
        n = limit;
      }
    }
  }
  __sync_synchronize(); /* nothing of the critical section before the hand-over is seen */
  slock_slot(l)->holder_node = me;
  slock_acquired(l, contended, spins, attempts, failures, give_ups, waited_since);
}

void slockc_queued_unlock(simplelock_t *l) {
  uint64_t me = slock_slot(l)->holder_node;
  struct slock_qnode *q = QNODE(me - 1);
  slock_releasing(l);
  if (q->next == 0) {
    /* No successor linked: free the lock if we are still the tail. The attempt is
       counted before the CSG, while we still hold the lock. */
    slock_slot(l)->stats.csg_attempts += 1;
    __sync_synchronize();
    if (__sync_bool_compare_and_swap(&l->word, me, 0)) {
      q->owner = 0;
      return;
    }
    /* A waiter swapped itself in and is about to link: still ours, so count it. */
    slock_slot(l)->stats.csg_failures += 1;
    const long limit = slock_spin_limit > 0 ? slock_spin_limit : 1;
    long n = limit;
    while (q->next == 0)
      if (--n == 0) {
        slock_slot(l)->stats.give_ups += 1;
        tpf_defrc(); /* the successor was preempted between its swap and its link */
        n = limit;
      }
  }
  uint64_t next = q->next;
  struct slock_qnode *succ = QNODE(next - 1);
  __sync_synchronize();
  succ->locked = 0; /* the hand-over: the successor holds the lock now */
  slock_serialize();
  if (succ->asleep) tpf_word_wake(&succ->locked, 1);
  q->owner = 0;
  /* Wake ahead: the successor's successor is next in line. (The successor may have
     released already and its node moved on: then the mark lands on a waiter that
     spins longer than it needs to, which costs time but never correctness.) */
  const uint64_t after = succ->next;
  if (after != 0 && after <= SLOCK_QNODES) {
    struct slock_qnode *h = QNODE(after - 1);
    h->head = 1;
    slock_serialize();
    if (h->asleep) tpf_word_wake(&h->locked, 1);
  }
}
