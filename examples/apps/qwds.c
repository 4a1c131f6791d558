/* QWDS: an application program kept outside apps/ (docs/guest-programs.md,
   "Keep programs outside the source tree"). It counts the words of its input message and the letters of
   each length, keeps the longest word in its static storage (which is the ECB's own),
   copies the message into the ECB heap, ENTERs QZZ1 for the message's fare like the
   demo transaction, and logs a line for every 100th ECB. Returns 0, or 8 when the
   heap has no room.

   Build it into tpf_apps.elf:   cmake -S . -B build -DTPFEMU_APP_DIRS=examples/apps
   and run it:                   build/tpfemu run configs/demo.yaml --set workload.program=QWDS */
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <tpf.h>

#define MAX_WORD 32

static long by_length[MAX_WORD + 1]; /* words of each length (the last: longer ones) */
static char longest[MAX_WORD + 1];

static int is_letter(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

int QWDS(void *msg, long len) {
  char *text = malloc((size_t)len + 1);
  if (!text) return 8;
  memcpy(text, msg, (size_t)len);
  text[len] = 0;

  long words = 0;
  for (long k = 0; k < len;) {
    while (k < len && !is_letter((unsigned char)text[k])) ++k;
    const long start = k;
    while (k < len && is_letter((unsigned char)text[k])) ++k;
    const long n = k - start;
    if (n == 0) continue;
    ++words;
    ++by_length[n < MAX_WORD ? n : MAX_WORD];
    if (n <= MAX_WORD && (size_t)n > strlen(longest)) {
      memcpy(longest, text + start, (size_t)n);
      longest[n] = 0;
    }
  }
  const int fare = tpf_enter("QZZ1", text, len);
  if (tpf_ecb_info(TPF_INFO_ECB) % 100 == 0) {
    openlog("QWDS", 0, LOG_USER);
    syslog(LOG_INFO, "%ld words, the longest %s, fare %d", words, longest, fare);
    tpf_log("QWDS: %ld words, the longest %s, fare %d", words, longest, fare);
  }
  free(text);
  return 0;
}
