/* Helpers shared by the application programs (apps.h). */
#include "apps.h"

static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t app_crc32(uint32_t crc, const void *p, size_t n) {
  const unsigned char *b = p;
  crc = ~crc;
  while (n--) {
    crc ^= *b++;
    crc = (crc >> 4) ^ crc_nibble[crc & 15];
    crc = (crc >> 4) ^ crc_nibble[crc & 15];
  }
  return ~crc;
}

void app_label(char *out, size_t size, const void *msg, long len) {
  const unsigned char *m = msg;
  size_t k = 0;
  if (!size) return;
  for (; m && k < (size_t)len && k + 1 < size && m[k] != ' '; ++k)
    out[k] = m[k] > ' ' && m[k] < 0x7f ? (char)m[k] : '.';
  out[k] = 0;
}
