/* A tiny stack-based bytecode VM: push/pop/dup/swap/over, arithmetic and compare,
   jumps, calls and returns with a separate return stack, local variables, and a
   dispatch loop over a switch. Programs: iterative factorial, recursive Fibonacci,
   gcd, a prime counter, and a loop that fills and sums VM memory. Each prints its result
   and the number of VM instructions executed. */
#include <stdint.h>
#include <stdio.h>

enum op {
  PUSH, POP, DUP, SWAP, OVER, ADD, SUB, MUL, DIV, MOD, NEG, LT, EQ, NOT, JMP, JZ, JNZ, CALL, RET,
  LOAD, STORE, MLOAD, MSTORE, PRINT, HALT
};

static int64_t mem[64];

static int64_t run(const int32_t *code, uint64_t *steps) {
  int64_t st[256], locals[16] = {0};
  int32_t rs[256];
  int sp = 0, rsp = 0, pc = 0;
  uint64_t n = 0;
  for (;;) {
    ++n;
    int32_t op = code[pc++];
    switch (op) {
    case PUSH: st[sp++] = code[pc++]; break;
    case POP: --sp; break;
    case DUP: st[sp] = st[sp - 1]; ++sp; break;
    case SWAP: { int64_t t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
    case OVER: st[sp] = st[sp - 2]; ++sp; break;
    case ADD: --sp; st[sp - 1] = (int64_t)((uint64_t)st[sp - 1] + (uint64_t)st[sp]); break;
    case SUB: --sp; st[sp - 1] = (int64_t)((uint64_t)st[sp - 1] - (uint64_t)st[sp]); break;
    case MUL: --sp; st[sp - 1] = (int64_t)((uint64_t)st[sp - 1] * (uint64_t)st[sp]); break;
    case DIV: --sp; st[sp - 1] = st[sp] ? st[sp - 1] / st[sp] : 0; break;
    case MOD: --sp; st[sp - 1] = st[sp] ? st[sp - 1] % st[sp] : 0; break;
    case NEG: st[sp - 1] = (int64_t)(0 - (uint64_t)st[sp - 1]); break;
    case LT: --sp; st[sp - 1] = st[sp - 1] < st[sp]; break;
    case EQ: --sp; st[sp - 1] = st[sp - 1] == st[sp]; break;
    case NOT: st[sp - 1] = !st[sp - 1]; break;
    case JMP: pc = code[pc]; break;
    case JZ: pc = st[--sp] ? pc + 1 : code[pc]; break;
    case JNZ: pc = st[--sp] ? code[pc] : pc + 1; break;
    case CALL: rs[rsp++] = pc + 1; pc = code[pc]; break;
    case RET: if (!rsp) { *steps = n; return st[sp - 1]; } pc = rs[--rsp]; break;
    case LOAD: st[sp++] = locals[code[pc++]]; break;
    case STORE: locals[code[pc++]] = st[--sp]; break;
    case MLOAD: st[sp - 1] = mem[st[sp - 1] & 63]; break;
    case MSTORE: sp -= 2; mem[st[sp + 1] & 63] = st[sp]; break; /* value addr MSTORE */
    case PRINT: printf("  vm print %lld\n", (long long)st[--sp]); break;
    case HALT: *steps = n; return sp ? st[sp - 1] : 0;
    default: printf("bad opcode %d\n", op); *steps = n; return -1;
    }
  }
}

int main(void) {
  /* factorial(20): acc=1; n=20; while n: acc*=n; n-=1 */
  static const int32_t fact2[] = {
      PUSH, 1, STORE, 0, PUSH, 20, STORE, 1,        /* 0..7 */
      LOAD, 1, JZ, 28,                              /* 8..11 */
      LOAD, 0, LOAD, 1, MUL, STORE, 0,              /* 12..18 */
      LOAD, 1, PUSH, 1, SUB, STORE, 1, JMP, 8,      /* 19..27 */
      LOAD, 0, HALT};                               /* 28 */
  /* fib(n) recursive: fib: DUP PUSH 2 LT JNZ ret; DUP PUSH 1 SUB CALL fib SWAP PUSH 2 SUB CALL fib ADD RET */
  static const int32_t fib[] = {
      PUSH, 20, CALL, 5, HALT,                       /* 0..4 */
      DUP, PUSH, 2, LT, JNZ, 26,                     /* 5..10 */
      DUP, PUSH, 1, SUB, CALL, 5,                    /* 11..16 */
      SWAP, PUSH, 2, SUB, CALL, 5,                   /* 17..22 */
      ADD, RET, 0,                                   /* 23..25 */
      RET};                                          /* 26 */
  /* gcd(a, b): while b: a, b = b, a % b */
  static const int32_t gcd[] = {
      PUSH, 1071 * 97, PUSH, 462 * 97,               /* 0..3 */
      DUP, JZ, 12,                                   /* 4..6 */
      SWAP, OVER, MOD, JMP, 4,                       /* 7..11 */
      POP, HALT};                                    /* 12..13 */
  /* count primes below 2000 by trial division */
  static const int32_t primes[] = {
      PUSH, 0, STORE, 0, PUSH, 2, STORE, 1,          /* 0..7   count = 0, n = 2 */
      LOAD, 1, PUSH, 2000, LT, JZ, 61,               /* 8..14  while n < 2000 */
      PUSH, 2, STORE, 2,                             /* 15..18 d = 2 */
      LOAD, 1, LOAD, 2, LOAD, 2, MUL, LT, JNZ, 45,   /* 19..28 n < d*d: prime */
      LOAD, 1, LOAD, 2, MOD, JZ, 52,                 /* 29..35 n % d == 0: composite */
      LOAD, 2, PUSH, 1, ADD, STORE, 2, JMP, 19,      /* 36..44 d++ */
      LOAD, 0, PUSH, 1, ADD, STORE, 0,               /* 45..51 count++ */
      LOAD, 1, PUSH, 1, ADD, STORE, 1, JMP, 8,       /* 52..60 n++ */
      LOAD, 0, HALT};                                /* 61..63 */
  /* mem[i] = i*i + 3 for i < 16, summing as it goes */
  static const int32_t squares[] = {
      PUSH, 0, STORE, 0, PUSH, 0, STORE, 1,          /* 0..7   sum = 0, i = 0 */
      LOAD, 1, PUSH, 16, LT, JZ, 42,                 /* 8..14  while i < 16 */
      LOAD, 1, DUP, MUL, PUSH, 3, ADD, LOAD, 1, MSTORE, /* 15..24 mem[i] = i*i+3 */
      LOAD, 0, LOAD, 1, MLOAD, ADD, STORE, 0,        /* 25..32 sum += mem[i] */
      LOAD, 1, PUSH, 1, ADD, STORE, 1, JMP, 8,       /* 33..41 i++ */
      LOAD, 0, HALT};                                /* 42..44 */
  uint64_t steps;
  int64_t r = run(fact2, &steps);
  printf("fact(20) = %lld in %llu steps\n", (long long)r, (unsigned long long)steps);
  r = run(fib, &steps);
  printf("fib(20) = %lld in %llu steps\n", (long long)r, (unsigned long long)steps);
  r = run(gcd, &steps);
  printf("gcd = %lld in %llu steps\n", (long long)r, (unsigned long long)steps);
  r = run(primes, &steps);
  printf("primes below 2000 = %lld in %llu steps\n", (long long)r, (unsigned long long)steps);
  r = run(squares, &steps);
  printf("squares sum = %lld in %llu steps, mem[15] = %lld\n", (long long)r, (unsigned long long)steps,
         (long long)mem[15]);
  static const int32_t printer[] = {PUSH, 7, DUP, MUL, PRINT, PUSH, -3, NEG, PRINT, PUSH, 5, PUSH, 3, LT, NOT, PRINT,
                                    PUSH, 42, PUSH, 0, DIV, PRINT, PUSH, 99, HALT};
  r = run(printer, &steps);
  printf("printer = %lld in %llu steps\n", (long long)r, (unsigned long long)steps);
  static const int32_t badop[] = {PUSH, 1, 77};
  r = run(badop, &steps);
  printf("badop = %lld in %llu steps\n", (long long)r, (unsigned long long)steps);
  return 0;
}
