/* State machines without setjmp: a table-driven DFA tokenizer for a small language
   (identifiers, integers, operators, strings with escapes, comments), a DFA that
   checks decimal numbers divisible by 7, and a run-length protocol decoder written
   as an explicit state enum in a loop. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum cls { C_ALPHA, C_DIGIT, C_SPACE, C_QUOTE, C_BSLASH, C_SLASH, C_STAR, C_OP, C_NL, C_OTHER, NCLS };
enum st { S_START, S_IDENT, S_NUM, S_STR, S_STRESC, S_SLASH, S_LCOMMENT, S_BCOMMENT, S_BSTAR, NST };

static enum cls classify(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return C_ALPHA;
  if (c >= '0' && c <= '9') return C_DIGIT;
  if (c == ' ' || c == '\t' || c == '\r') return C_SPACE;
  if (c == '\n') return C_NL;
  if (c == '"') return C_QUOTE;
  if (c == '\\') return C_BSLASH;
  if (c == '/') return C_SLASH;
  if (c == '*') return C_STAR;
  if (strchr("+-=<>;(){},", c)) return C_OP;
  return C_OTHER;
}

static unsigned counts[8];
enum tok { T_IDENT, T_NUM, T_STR, T_OP, T_COMMENT, T_ERR, T_LINE, T_OTHER };
static uint32_t tok_hash;
static void emit(enum tok t, const char *s, const char *e) {
  counts[t]++;
  tok_hash = tok_hash * 31 + (uint32_t)t;
  for (; s < e; ++s) tok_hash = tok_hash * 31 + (unsigned char)*s;
}

static void tokenize(const char *src) {
  enum st s = S_START;
  const char *start = src;
  for (const char *p = src;; ++p) {
    unsigned char c = (unsigned char)*p;
    enum cls k = c ? classify(c) : C_OTHER;
    switch (s) {
    case S_START:
      if (!c) return;
      start = p;
      switch (k) {
      case C_ALPHA: s = S_IDENT; break;
      case C_DIGIT: s = S_NUM; break;
      case C_QUOTE: s = S_STR; break;
      case C_SLASH: s = S_SLASH; break;
      case C_NL: emit(T_LINE, p, p); break;
      case C_SPACE: break;
      case C_OP: case C_STAR: emit(T_OP, p, p + 1); break;
      default: emit(T_OTHER, p, p + 1); break;
      }
      break;
    case S_IDENT:
      if (k == C_ALPHA || k == C_DIGIT) break;
      emit(T_IDENT, start, p), s = S_START, --p;
      break;
    case S_NUM:
      if (k == C_DIGIT) break;
      if (k == C_ALPHA) { emit(T_ERR, start, p + 1), s = S_START; break; }
      emit(T_NUM, start, p), s = S_START, --p;
      break;
    case S_STR:
      if (!c || k == C_NL) { emit(T_ERR, start, p), s = S_START, --p; break; }
      if (k == C_BSLASH) s = S_STRESC;
      else if (k == C_QUOTE) emit(T_STR, start, p + 1), s = S_START;
      break;
    case S_STRESC:
      if (!c) { emit(T_ERR, start, p), s = S_START, --p; break; }
      s = S_STR;
      break;
    case S_SLASH:
      if (k == C_SLASH) s = S_LCOMMENT;
      else if (k == C_STAR) s = S_BCOMMENT;
      else emit(T_OP, start, p), s = S_START, --p;
      break;
    case S_LCOMMENT:
      if (!c || k == C_NL) emit(T_COMMENT, start, p), s = S_START, --p;
      break;
    case S_BCOMMENT:
      if (!c) { emit(T_ERR, start, p), s = S_START, --p; break; }
      if (k == C_STAR) s = S_BSTAR;
      break;
    case S_BSTAR:
      if (!c) { emit(T_ERR, start, p), s = S_START, --p; break; }
      if (k == C_SLASH) emit(T_COMMENT, start, p + 1), s = S_START;
      else if (k != C_STAR) s = S_BCOMMENT;
      break;
    default:
      return;
    }
  }
}

/* DFA over decimal digits with 7 states: the remainder mod 7. */
static int div7(const char *s) {
  static unsigned char delta[7][10];
  if (!delta[1][0])
    for (int r = 0; r < 7; ++r)
      for (int d = 0; d < 10; ++d) delta[r][d] = (unsigned char)((r * 10 + d) % 7);
  int r = 0;
  for (; *s; ++s) r = delta[r][*s - '0'];
  return r == 0;
}

/* Decoder: bytes "count, value" pairs; count 0 = literal run of next byte n bytes. */
static int decode(const unsigned char *in, int n, unsigned char *out) {
  enum { WANT_COUNT, WANT_VALUE, WANT_LITLEN, IN_LITERAL } st = WANT_COUNT;
  int o = 0, cnt = 0;
  for (int i = 0; i < n; ++i) {
    unsigned char b = in[i];
    switch (st) {
    case WANT_COUNT: if (b) cnt = b, st = WANT_VALUE; else st = WANT_LITLEN; break;
    case WANT_VALUE: while (cnt--) out[o++] = b; st = WANT_COUNT; break;
    case WANT_LITLEN: cnt = b; st = cnt ? IN_LITERAL : WANT_COUNT; break;
    case IN_LITERAL: out[o++] = b; if (--cnt == 0) st = WANT_COUNT; break;
    }
  }
  return st == WANT_COUNT ? o : -1;
}

int main(void) {
  const char *src =
      "int main(void) {\n"
      "  x = 42 + y_1; // a comment\n"
      "  s = \"str\\\"ing\\n\"; /* block * comment */\n"
      "  if (a <= b) { return 7abc; }\n"
      "  t = \"unterminated\n"
      "  z = 1/2 /**/ ; @ # /* never closed";
  tokenize(src);
  printf("ident=%u num=%u str=%u op=%u comment=%u err=%u lines=%u other=%u hash=%08x\n", counts[0], counts[1],
         counts[2], counts[3], counts[4], counts[5], counts[6], counts[7], tok_hash);
  const char *nums[] = {"0", "7", "13", "49", "343", "1000000", "999999", "1234567", "98765432101234567890",
                        "777777777777777777777777777777"};
  for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; ++i) printf("%s:%d ", nums[i], div7(nums[i]));
  putchar('\n');
  unsigned cnt7 = 0;
  char buf[16];
  for (int v = 0; v < 5000; ++v) snprintf(buf, sizeof buf, "%d", v), cnt7 += (unsigned)div7(buf);
  printf("multiples of 7 below 5000: %u\n", cnt7);
  static const unsigned char enc[] = {3, 'a', 0, 4, 'x', 'y', 'z', '!', 1, 'b', 0, 0, 5, '-', 0, 2, 'o', 'k'};
  unsigned char out[64];
  int n = decode(enc, sizeof enc, out);
  printf("decoded %d: %.*s\n", n, n, (const char *)out);
  printf("truncated input: %d\n", decode(enc, 5, out));
  return 0;
}
