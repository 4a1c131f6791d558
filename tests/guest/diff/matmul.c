/* Matrix multiply with int64 elements: naive i-j-k, loop-interchanged i-k-j, and a
   blocked version must agree; matrix power by repeated squaring (Fibonacci matrix
   mod 2^64), trace and a checksum; also an int32 multiply with 64-bit
   accumulation and a transposed-B variant. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 48
static int64_t A[N][N], B[N][N], C1[N][N], C2[N][N], C3[N][N], BT[N][N];

static void mul_ijk(int64_t (*c)[N], int64_t (*a)[N], int64_t (*b)[N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      uint64_t s = 0;
      for (int k = 0; k < N; ++k) s += (uint64_t)a[i][k] * (uint64_t)b[k][j];
      c[i][j] = (int64_t)s;
    }
}
static void mul_ikj(int64_t (*c)[N], int64_t (*a)[N], int64_t (*b)[N]) {
  memset(c, 0, sizeof(int64_t) * N * N);
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < N; ++k) {
      uint64_t aik = (uint64_t)a[i][k];
      for (int j = 0; j < N; ++j) c[i][j] = (int64_t)((uint64_t)c[i][j] + aik * (uint64_t)b[k][j]);
    }
}
static void mul_blocked(int64_t (*c)[N], int64_t (*a)[N], int64_t (*b)[N]) {
  enum { BS = 16 };
  memset(c, 0, sizeof(int64_t) * N * N);
  for (int ii = 0; ii < N; ii += BS)
    for (int kk = 0; kk < N; kk += BS)
      for (int jj = 0; jj < N; jj += BS)
        for (int i = ii; i < ii + BS; ++i)
          for (int k = kk; k < kk + BS; ++k)
            for (int j = jj; j < jj + BS; ++j)
              c[i][j] = (int64_t)((uint64_t)c[i][j] + (uint64_t)a[i][k] * (uint64_t)b[k][j]);
}

typedef struct {
  uint64_t m[2][2];
} m2;
static m2 m2mul(m2 x, m2 y) {
  m2 r;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) r.m[i][j] = x.m[i][0] * y.m[0][j] + x.m[i][1] * y.m[1][j];
  return r;
}

int main(void) {
  uint64_t s = 42;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      s = s * 6364136223846793005ULL + 1;
      A[i][j] = (int64_t)(s >> 40) - (1 << 23);
      s = s * 6364136223846793005ULL + 1;
      B[i][j] = (int64_t)(s >> 11);
      if ((i + j) % 13 == 0) B[i][j] = -B[i][j];
    }
  mul_ijk(C1, A, B);
  mul_ikj(C2, A, B);
  mul_blocked(C3, A, B);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) BT[j][i] = B[i][j];
  unsigned bad = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      uint64_t t = 0;
      for (int k = 0; k < N; ++k) t += (uint64_t)A[i][k] * (uint64_t)BT[j][k];
      if ((int64_t)t != C1[i][j]) ++bad;
    }
  int same = memcmp(C1, C2, sizeof C1) == 0 && memcmp(C1, C3, sizeof C1) == 0;
  uint64_t trace = 0, h = 0;
  for (int i = 0; i < N; ++i) trace += (uint64_t)C1[i][i];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) h = (h ^ (uint64_t)C1[i][j]) * 0x100000001b3ULL;
  printf("same=%d bad=%u trace=%016llx hash=%016llx c[3][7]=%lld\n", same, bad, (unsigned long long)trace,
         (unsigned long long)h, (long long)C1[3][7]);
  /* int32 elements, 64-bit accumulation */
  static int32_t P[N][N], Q[N][N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) P[i][j] = (i * 7 - j * 3) * 100003, Q[i][j] = (i ^ j) - 20;
  int64_t acc = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      int64_t t = 0;
      for (int k = 0; k < N; ++k) t += (int64_t)P[i][k] * Q[k][j];
      acc = acc * 3 + t;
      acc %= 1000000000039LL;
    }
  printf("int32 acc=%lld\n", (long long)acc);
  /* Fibonacci by matrix power, mod 2^64 */
  m2 r = {{{1, 0}, {0, 1}}}, base = {{{1, 1}, {1, 0}}};
  for (uint64_t e = 1000000000000ULL; e; e >>= 1) {
    if (e & 1) r = m2mul(r, base);
    base = m2mul(base, base);
  }
  printf("fib(10^12) mod 2^64 = %016llx\n", (unsigned long long)r.m[0][1]);
  return !same || bad;
}
