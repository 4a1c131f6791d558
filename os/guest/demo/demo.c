/* The bundled demo: a little transaction workload in guest code. It keeps an
   account table in a hash table, applies a deterministic stream of transfers, sorts
   the accounts by balance and prints a checksum, so every part of the core (loads,
   arithmetic, branches, calls, storage-to-storage moves) is exercised. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACCOUNTS 512
#define TRANSFERS 200000

struct account {
  char name[16];
  int64_t balance;
  uint32_t transfers;
  struct account *next; /* hash chain */
};

static struct account *buckets[256];

static uint32_t hash(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static struct account *lookup(const char *name) {
  for (struct account *a = buckets[hash(name) & 255]; a; a = a->next)
    if (strcmp(a->name, name) == 0) return a;
  return 0;
}

static int by_balance(const void *x, const void *y) {
  const struct account *a = *(struct account *const *)x, *b = *(struct account *const *)y;
  if (a->balance != b->balance) return a->balance < b->balance ? 1 : -1;
  return strcmp(a->name, b->name);
}

int main(void) {
  static struct account *all[ACCOUNTS];
  for (int k = 0; k < ACCOUNTS; ++k) {
    struct account *a = calloc(1, sizeof *a);
    snprintf(a->name, sizeof a->name, "ACCT%05d", k * 7919 % 100000);
    a->balance = 1000;
    uint32_t h = hash(a->name) & 255;
    a->next = buckets[h];
    buckets[h] = a;
    all[k] = a;
  }
  srand(42);
  int64_t moved = 0;
  for (int t = 0; t < TRANSFERS; ++t) {
    char from[16], to[16];
    snprintf(from, sizeof from, "ACCT%05d", rand() % ACCOUNTS * 7919 % 100000);
    snprintf(to, sizeof to, "ACCT%05d", rand() % ACCOUNTS * 7919 % 100000);
    struct account *a = lookup(from), *b = lookup(to);
    int64_t amount = rand() % 100;
    if (a == b || a->balance < amount) continue;
    a->balance -= amount, b->balance += amount;
    a->transfers++, b->transfers++;
    moved += amount;
  }
  qsort(all, ACCOUNTS, sizeof all[0], by_balance);
  int64_t total = 0;
  uint32_t check = 0;
  for (int k = 0; k < ACCOUNTS; ++k) total += all[k]->balance, check = check * 31 + (uint32_t)all[k]->balance;
  printf("tpfemu demo: %d accounts, %d transfers tried, %lld units moved\n", ACCOUNTS, TRANSFERS,
         (long long)moved);
  printf("richest %s %lld (%u transfers), poorest %s %lld\n", all[0]->name, (long long)all[0]->balance,
         all[0]->transfers, all[ACCOUNTS - 1]->name, (long long)all[ACCOUNTS - 1]->balance);
  printf("total %lld, checksum %08x\n", (long long)total, check);
  return total == (int64_t)ACCOUNTS * 1000 ? 0 : 1;
}
