/* A recursive-descent parser and evaluator for integer expressions with
   precedence and associativity: ?:, ||, &&, |, ^, &, == !=, < <= > >=, << >>,
   + -, * / %, unary - ! ~, parentheses, decimal and hex literals, and variables
   a..z assigned with "=". Errors (division by zero, bad syntax) are reported, not
   executed. Arithmetic wraps in 64-bit unsigned to stay defined. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *p;
static int err;
static int64_t vars[26];

static void skip(void) {
  while (*p == ' ') ++p;
}
static int accept(const char *tok) {
  skip();
  size_t n = strlen(tok);
  if (strncmp(p, tok, n) == 0) {
    /* do not take "<" from "<<" or "<=", "&" from "&&", "=" from "==" */
    if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '&' || tok[0] == '|' || tok[0] == '=') &&
        (p[1] == tok[0] || (p[1] == '=' && tok[0] != '&' && tok[0] != '|')))
      return 0;
    if (n == 1 && tok[0] == '!' && p[1] == '=') return 0;
    p += n;
    return 1;
  }
  return 0;
}

static int64_t expr(void);

static int64_t primary(void) {
  skip();
  if (accept("(")) {
    int64_t v = expr();
    if (!accept(")")) err = 1;
    return v;
  }
  if (accept("-")) return (int64_t)(0 - (uint64_t)primary());
  if (accept("!")) return !primary();
  if (accept("~")) return ~primary();
  if (*p >= 'a' && *p <= 'z') {
    int idx = *p++ - 'a';
    if (accept("=")) return vars[idx] = expr();
    return vars[idx];
  }
  if (*p >= '0' && *p <= '9') {
    uint64_t v = 0;
    if (p[0] == '0' && p[1] == 'x') {
      p += 2;
      for (;; ++p) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (d < 0) break;
        v = v * 16 + (uint64_t)d;
      }
    } else {
      while (*p >= '0' && *p <= '9') v = v * 10 + (uint64_t)(*p++ - '0');
    }
    return (int64_t)v;
  }
  err = 1;
  return 0;
}

static int64_t mul(void) {
  int64_t v = primary();
  for (;;) {
    if (accept("*")) v = (int64_t)((uint64_t)v * (uint64_t)primary());
    else if (accept("/") || accept("%")) {
      char op = p[-1];
      int64_t r = primary();
      if (r == 0 || (r == -1 && v == INT64_MIN)) err = 2, r = 1;
      v = op == '/' ? v / r : v % r;
    } else return v;
  }
}
static int64_t add(void) {
  int64_t v = mul();
  for (;;) {
    if (accept("+")) v = (int64_t)((uint64_t)v + (uint64_t)mul());
    else if (accept("-")) v = (int64_t)((uint64_t)v - (uint64_t)mul());
    else return v;
  }
}
static int64_t shift(void) {
  int64_t v = add();
  for (;;) {
    if (accept("<<")) v = (int64_t)((uint64_t)v << (add() & 63));
    else if (accept(">>")) v = v >> (add() & 63);
    else return v;
  }
}
static int64_t rel(void) {
  int64_t v = shift();
  for (;;) {
    if (accept("<=")) v = v <= shift();
    else if (accept(">=")) v = v >= shift();
    else if (accept("<")) v = v < shift();
    else if (accept(">")) v = v > shift();
    else return v;
  }
}
static int64_t eq(void) {
  int64_t v = rel();
  for (;;) {
    if (accept("==")) v = v == rel();
    else if (accept("!=")) v = v != rel();
    else return v;
  }
}
static int64_t band(void) { int64_t v = eq(); while (accept("&")) v &= eq(); return v; }
static int64_t bxor(void) { int64_t v = band(); while (accept("^")) v ^= band(); return v; }
static int64_t bor(void) { int64_t v = bxor(); while (accept("|")) v |= bxor(); return v; }
static int64_t land(void) { int64_t v = bor(); while (accept("&&")) { int64_t r = bor(); v = v && r; } return v; }
static int64_t lor(void) { int64_t v = land(); while (accept("||")) { int64_t r = land(); v = v || r; } return v; }
static int64_t expr(void) {
  int64_t c = lor();
  if (accept("?")) {
    int64_t a = expr();
    if (!accept(":")) err = 1;
    int64_t b = expr();
    return c ? a : b;
  }
  return c;
}

int main(void) {
  static const char *tests[] = {
      "1+2*3", "(1+2)*3", "10-4-3", "2*3+4*5-6/2", "100/7", "-100/7", "-100%7", "100%-7", "1<<62", "1<<63",
      "-1>>10", "0xff & 0x0f | 0x100 ^ 0x1", "1 < 2 == 1", "3 >= 3 && 2 > 3 || 5 != 5", "!0 + !5 + ~0",
      "a = 5", "b = a * a + 1", "a + b", "c = (a > b) ? a : b", "x = 0x7fffffffffffffff", "x + 1",
      "x * 3", "1/0", "(1+2", "7 - - 3", "0 ? 1 : 0 ? 2 : 3", "y = z = 9", "y * z", "2 ** 3", "((((((1))))))",
      "123456789 * 987654321 % 1000000007", "-9223372036854775807 - 1", "0x8000000000000000 / -1",
  };
  for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; ++i) {
    p = tests[i];
    err = 0;
    int64_t v = expr();
    skip();
    if (*p) err = err ? err : 3;
    if (err) printf("%-40s error %d\n", tests[i], err);
    else printf("%-40s = %lld\n", tests[i], (long long)v);
  }
  /* a generated expression stressing recursion depth */
  static char big[4000];
  int n = 0;
  for (int i = 0; i < 300; ++i) big[n++] = '(';
  big[n++] = '1';
  for (int i = 0; i < 300; ++i) n += snprintf(big + n, sizeof big - (size_t)n, "+%d)", i % 10);
  p = big, err = 0;
  printf("deep = %lld err=%d\n", (long long)expr(), err);
  return 0;
}
