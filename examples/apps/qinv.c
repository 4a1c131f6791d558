/* QINV: an application with a simple lock of its own (docs/locks-and-syslog.md, "Your
   own locks"). An inventory of QINV_ITEMS stock counts in the shared area, which every
   ECB sees, kept under one simple lock: each message takes QINV_ROUNDS items, each under
   the lock (find the item with the most stock, take one, restock when all are low), so
   with several I-streams the lock is hot. The first ECB initializes and names the lock;
   the others wait until it has. locks.txt reports it as "QINV stock". Returns 0.

   Build it into tpf_apps.elf:   cmake -S . -B build -DTPFEMU_APP_DIRS=examples/apps
   and run it:                   build/tpfemu run configs/demo.yaml --set workload.program=QINV */
#include <simplelock.h>
#include <tpf.h>
#include <tpf_evm.h>

#define QINV_ITEMS 32
#define QINV_ROUNDS 20

struct inventory {
  simplelock_t lock;
  volatile uint64_t ready; /* 0 not initialized, 1 being initialized, 2 ready */
  long stock[QINV_ITEMS];
  long taken;
};
#define INVENTORY ((struct inventory *)(TPF_EVM_SHARED + TPF_SHARED_APPS))
_Static_assert(TPF_SHARED_APPS + sizeof(struct inventory) <= TPF_SHARED_APPS_END, "the inventory in its part");

static void qinv_take_one(struct inventory *inv) {
  int most = 0;
  for (int k = 1; k < QINV_ITEMS; ++k)
    if (inv->stock[k] > inv->stock[most]) most = k;
  if (inv->stock[most] == 0)
    for (int k = 0; k < QINV_ITEMS; ++k) inv->stock[k] = 10 + k;
  else
    --inv->stock[most];
  ++inv->taken;
}

int QINV(void *msg, long len) {
  (void)msg, (void)len;
  struct inventory *inv = INVENTORY;
  if (inv->ready != 2) {
    if (__sync_bool_compare_and_swap(&inv->ready, 0, 1)) {
      simple_lock_init(&inv->lock, "QINV stock");
      __sync_synchronize();
      inv->ready = 2;
    }
    while (inv->ready != 2) tpf_defrc();
  }
  for (int round = 0; round < QINV_ROUNDS; ++round) {
    simple_lock(&inv->lock);
    qinv_take_one(inv);
    simple_unlock(&inv->lock);
  }
  return 0;
}
