/* Backtracking: N-queens counts for N = 1..10 with bitmask columns and diagonals
   (92 solutions for 8), the first solution for 8 in array form, and a Sudoku solver
   using candidate bitmasks and recursion. */
#include <stdint.h>
#include <stdio.h>

static unsigned queens(unsigned n, unsigned row, uint32_t cols, uint32_t d1, uint32_t d2) {
  if (row == n) return 1;
  unsigned count = 0;
  uint32_t all = (1u << n) - 1, avail = all & ~(cols | d1 | d2);
  while (avail) {
    uint32_t bit = avail & (0u - avail);
    avail ^= bit;
    count += queens(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  return count;
}

static int place[8];
static int first_solution(int row) {
  if (row == 8) return 1;
  for (int c = 0; c < 8; ++c) {
    int ok = 1;
    for (int r = 0; r < row && ok; ++r)
      if (place[r] == c || place[r] - c == row - r || c - place[r] == row - r) ok = 0;
    if (ok) {
      place[row] = c;
      if (first_solution(row + 1)) return 1;
    }
  }
  return 0;
}

static uint8_t grid[81];
static uint16_t rowm[9], colm[9], boxm[9];
static unsigned nodes;
static int solve(void) {
  int best = -1, bestc = 10;
  for (int i = 0; i < 81; ++i) {
    if (grid[i]) continue;
    int r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3;
    int cnt = __builtin_popcount(0x3fe & ~(rowm[r] | colm[c] | boxm[b]));
    if (cnt < bestc) bestc = cnt, best = i;
  }
  if (best < 0) return 1;
  ++nodes;
  int r = best / 9, c = best % 9, b = r / 3 * 3 + c / 3;
  uint16_t cand = (uint16_t)(0x3fe & ~(rowm[r] | colm[c] | boxm[b]));
  while (cand) {
    int d = __builtin_ctz(cand);
    cand &= (uint16_t)(cand - 1);
    uint16_t bit = (uint16_t)(1u << d);
    grid[best] = (uint8_t)d, rowm[r] |= bit, colm[c] |= bit, boxm[b] |= bit;
    if (solve()) return 1;
    grid[best] = 0, rowm[r] &= (uint16_t)~bit, colm[c] &= (uint16_t)~bit, boxm[b] &= (uint16_t)~bit;
  }
  return 0;
}

int main(void) {
  for (unsigned n = 1; n <= 10; ++n) printf("queens(%u)=%u\n", n, queens(n, 0, 0, 0, 0));
  first_solution(0);
  printf("first 8-queens:");
  for (int i = 0; i < 8; ++i) printf(" %d", place[i]);
  putchar('\n');
  /* a hard puzzle ("Arto Inkala" 2012) */
  const char *puzzle = "800000000003600000070090200050007000000045700000100030001000068008500010090000400";
  for (int i = 0; i < 81; ++i) {
    int d = puzzle[i] - '0';
    grid[i] = (uint8_t)d;
    if (d) {
      int r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3;
      rowm[r] |= (uint16_t)(1u << d), colm[c] |= (uint16_t)(1u << d), boxm[b] |= (uint16_t)(1u << d);
    }
  }
  int ok = solve();
  printf("sudoku solved=%d nodes=%u\n", ok, nodes);
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) putchar('0' + grid[r * 9 + c]);
    putchar('\n');
  }
  return !ok;
}
