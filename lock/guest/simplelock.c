/* simple_lock / simple_unlock: select the algorithm the configuration names. The
   variables are const volatile so they live in the image's read-only data (shared by
   every ECB, no copy of static storage) yet are read at run time: the control
   program writes them into the image before any ECB runs. GCC would put a const
   volatile object in .data, which each ECB would copy on first touch; a .rodata
   section keeps it on the read-only pages every process shares (the flags are given
   here and the '#' comments out those GCC appends, which would make it writable). */
#include <simplelock.h>

#define SLOCK_RODATA __attribute__((section(".rodata.slock,\"a\",@progbits #")))
const volatile int slock_algorithm SLOCK_RODATA = SLOCK_CSG_LOOP;
const volatile long slock_spin_limit SLOCK_RODATA = SLOCK_SPIN_LIMIT_DEFAULT;

_Static_assert(sizeof(simplelock_t) == 16, "a simple lock is two doublewords");
_Static_assert(sizeof(struct slock_slot) == 256, "a statistics slot is one line");
_Static_assert(__builtin_offsetof(struct slock_slot, stats) == SLOCK_SLOT_STATS_OFFSET, "SLOCK_SLOT_STATS_OFFSET");
_Static_assert(sizeof(struct slock_qnode) == 256, "a queue node is one line");

void simple_lock_init(simplelock_t *l, const char *name) {
  struct slock_slot *slot = slock_slot(l);
  l->word = 0;
  l->sleepers = 0;
  int k = 0;
  for (; name && name[k] && k < SLOCK_NAME_MAX - 1; ++k) slot->name[k] = name[k];
  for (; k < SLOCK_NAME_MAX; ++k) slot->name[k] = 0;
  slot->lock = (uint64_t)l;
}

void simple_lock(simplelock_t *l) {
  switch (slock_algorithm) {
    case SLOCK_PJ46800: slockc_pj46800_lock(l); return;
    case SLOCK_QUEUED: slockc_queued_lock(l); return;
    default: slockc_csg_lock(l); return;
  }
}

void simple_unlock(simplelock_t *l) {
  switch (slock_algorithm) {
    case SLOCK_PJ46800: slockc_pj46800_unlock(l); return;
    case SLOCK_QUEUED: slockc_queued_unlock(l); return;
    default: slockc_csg_unlock(l); return;
  }
}
