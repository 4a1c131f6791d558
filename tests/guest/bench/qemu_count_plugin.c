/* The fair peer of scripts/bench (issue 45): a QEMU TCG plugin that keeps what tpfemu's
 * core keeps, an execution count per instruction address, so that QEMU's speed with it
 * can be set beside tpfemu's exact counts. At translation each guest instruction gets a
 * counter of its address (made once, reused when its block is translated again) and an
 * inline 64-bit add into it, which QEMU emits in the translated code: no call per
 * instruction. At exit the plugin prints the total and the number of addresses.
 *
 *   qemu-s390x -plugin build/libqemu_count_plugin.so PROGRAM
 *
 * Needs Debian's dynamic qemu-user (qemu-s390x): the static build does not load plugins.
 * Written against the plugin API's published C functions (QEMU 7.2, plugin API version
 * 1); the declarations below are the few it uses, so that no QEMU header is needed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn* insn, enum qemu_plugin_op op, void* ptr,
                                                uint64_t imm);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

/* The counters: an open-addressing table from instruction address to count, grown at
 * translation time only (a counter's address must never move: translated code adds
 * into it), so its slots hold pointers to counters allocated in chunks. */
struct counter {
  uint64_t address, count;
};
static struct counter** slots;
static size_t slot_count, used;
static struct counter* chunk;
static size_t chunk_left;

static size_t hash(uint64_t a, size_t n) { return (size_t)((a >> 1) * 0x9E3779B97F4A7C15ull) & (n - 1); }

static void grow(void) {
  size_t n = slot_count ? 2 * slot_count : 1 << 16;
  struct counter** s = calloc(n, sizeof *s);
  if (!s) abort();
  for (size_t k = 0; k < slot_count; ++k)
    if (slots[k]) {
      size_t h = hash(slots[k]->address, n);
      while (s[h]) h = (h + 1) & (n - 1);
      s[h] = slots[k];
    }
  free(slots);
  slots = s, slot_count = n;
}

static struct counter* counter_of(uint64_t address) {
  if (2 * (used + 1) > slot_count) grow();
  size_t h = hash(address, slot_count);
  while (slots[h] && slots[h]->address != address) h = (h + 1) & (slot_count - 1);
  if (slots[h]) return slots[h];
  if (!chunk_left) {
    chunk_left = 4096;
    chunk = calloc(chunk_left, sizeof *chunk);
    if (!chunk) abort();
  }
  struct counter* c = chunk++;
  --chunk_left, ++used;
  c->address = address;
  return slots[h] = c;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t k = 0; k < n; ++k) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, k);
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                               &counter_of(qemu_plugin_insn_vaddr(insn))->count, 1);
  }
}

static void at_exit(qemu_plugin_id_t id, void* userdata) {
  (void)id, (void)userdata;
  uint64_t total = 0;
  for (size_t k = 0; k < slot_count; ++k)
    if (slots[k]) total += slots[k]->count;
  fprintf(stderr, "qemu_count_plugin: instructions=%llu addresses=%zu\n", (unsigned long long)total, used);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const void* info, int argc, char** argv) {
  (void)info, (void)argc, (void)argv;
  qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
