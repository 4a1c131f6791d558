// pl_gen COUNT SEED: COUNT lines, each a word drawn from a small vocabulary by a
// linear congruential generator (the pipeline test's first stage).
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  static const char* words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                                "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"};
  long n = argc > 1 ? atol(argv[1]) : 100;
  unsigned long x = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
  for (long k = 0; k < n; ++k) {
    x = x * 6364136223846793005ul + 1442695040888963407ul;
    puts(words[(x >> 33) % 13 + (x >> 60) % 4]);
  }
  return 0;
}
