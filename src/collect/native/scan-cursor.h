/* A read position inside one line, with the checks both scanners share. Strings are PLAIN: printable ASCII without
 * `"` or `\`, so a string ends at the next `"` and its bytes are its UTF-8 (and latin1) text. */
#ifndef ROCM_PERF_SCAN_CURSOR_H
#define ROCM_PERF_SCAN_CURSOR_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define LINE_MASK_WORDS 128 /* lines up to 8 KiB get quote masks; longer ones are read byte by byte */

typedef struct {
  const uint8_t *bytes;
  size_t at;
  size_t end;
  /* Bytes up to here may be read (they belong to the scanned range), so 16-byte loads may run past `end`. */
  size_t limit;
  /* When the whole line is plain (no byte outside printable ASCII, no `\`): one bit per byte of the line set where
   * it holds a `"`, so a string's end is found from the bits. NULL otherwise. */
  const uint64_t *quotes;
  size_t line_start;
} scan_cursor;

typedef struct {
  size_t start;
  size_t end;
} byte_span;

/* 1 for the bytes a plain string may hold. */
extern const uint8_t plain_byte[256];

static inline uint64_t load64(const void *at) {
  uint64_t word;
  memcpy(&word, at, 8);
  return word;
}

static inline uint32_t load32(const void *at) {
  uint32_t word;
  memcpy(&word, at, 4);
  return word;
}

/* bytes[0, length) == literal, a word at a time: the last word overlaps the one before instead of a byte loop. */
static inline int equal_bytes(const uint8_t *bytes, const char *literal, size_t length) {
  if (length >= 8) {
    size_t i = 0;
    for (; i + 8 < length; i += 8)
      if (load64(bytes + i) != load64(literal + i)) return 0;
    return load64(bytes + length - 8) == load64(literal + length - 8);
  }
  if (length >= 4) return load32(bytes) == load32(literal) && load32(bytes + length - 4) == load32(literal + length - 4);
  for (size_t i = 0; i < length; i++)
    if (bytes[i] != (uint8_t)literal[i]) return 0;
  return 1;
}

static inline int take_literal(scan_cursor *cursor, const char *literal, size_t length) {
  if (cursor->end - cursor->at < length || !equal_bytes(cursor->bytes + cursor->at, literal, length)) return 0;
  cursor->at += length;
  return 1;
}
#define TAKE(cursor, literal) take_literal((cursor), (literal), sizeof(literal) - 1)

/* The index of the first `"` in bytes[at, end) when every byte before it is plain; end + 1 when there is none or
 * a byte before it is not plain (`also_high`: bytes >= 0x80 are allowed too). */
static inline size_t find_plain_quote(const scan_cursor *cursor, size_t at, int also_high) {
  const uint8_t *bytes = cursor->bytes;
  if (cursor->quotes != NULL) {
    if (at >= cursor->end) return cursor->end + 1;
    size_t offset = at - cursor->line_start, word = offset >> 6, words = ((cursor->end - cursor->line_start) + 63) >> 6;
    uint64_t bits = cursor->quotes[word] & (~0ull << (offset & 63));
    while (bits == 0) {
      if (++word >= words) return cursor->end + 1;
      bits = cursor->quotes[word];
    }
    return cursor->line_start + (word << 6) + (size_t)__builtin_ctzll(bits);
  }
#if defined(__SSE2__)
  if (!also_high) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20), tilde = _mm_set1_epi8(0x7e);
    for (; at + 16 <= cursor->limit && at < cursor->end; at += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(bytes + at));
      /* Signed compares: bytes >= 0x80 are negative, so below the space. */
      __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpgt_epi8(v, tilde)),
                                 _mm_cmpeq_epi8(v, backslash));
      unsigned quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote));
      unsigned bads = (unsigned)_mm_movemask_epi8(bad);
      if (quotes != 0) {
        unsigned first = (unsigned)__builtin_ctz(quotes);
        if ((bads & ((1u << first) - 1u)) != 0 || at + first >= cursor->end) return cursor->end + 1;
        return at + first;
      }
      if (bads != 0) return cursor->end + 1;
    }
  }
#endif
  for (; at < cursor->end; at++) {
    uint8_t code = bytes[at];
    if (code == '"') return at;
    if (!plain_byte[code] && !(also_high && code >= 0x80)) return cursor->end + 1;
  }
  return cursor->end + 1;
}

/* Fills quotes[] for bytes[start, end) and returns 1 when the whole line is plain or `"` (then strings need no byte
 * checks); 0 when some byte is not, or the line is too long for the masks. */
static inline int mask_plain_line(const uint8_t *bytes, size_t start, size_t end, size_t limit, uint64_t *quotes) {
  size_t length = end - start;
  if (length > LINE_MASK_WORDS * 64) return 0;
  size_t words = (length + 63) >> 6;
  uint64_t bad_any = 0;
  for (size_t word = 0; word < words; word++) {
    size_t at = start + (word << 6);
    uint64_t quote_bits = 0, bad_bits = 0;
#if defined(__SSE2__)
    if (at + 64 <= limit) {
      const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
      const __m128i space = _mm_set1_epi8(0x20), tilde = _mm_set1_epi8(0x7e);
      for (int part = 0; part < 4; part++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + at + 16 * part));
        __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpgt_epi8(v, tilde)),
                                   _mm_cmpeq_epi8(v, backslash));
        quote_bits |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * part);
        bad_bits |= (uint64_t)(unsigned)_mm_movemask_epi8(bad) << (16 * part);
      }
    } else
#endif
    {
      for (size_t i = 0; i < 64 && at + i < limit; i++) {
        uint8_t code = bytes[at + i];
        quote_bits |= (uint64_t)(code == '"') << i;
        bad_bits |= (uint64_t)(code != '"' && !plain_byte[code]) << i;
      }
    }
    size_t left = end - at;
    if (left < 64) {
      uint64_t keep = (1ull << left) - 1;
      quote_bits &= keep;
      bad_bits &= keep;
    }
    quotes[word] = quote_bits;
    bad_any |= bad_bits;
  }
  return bad_any == 0;
}

/* `"plain"` → the span inside the quotes. `also_high`: bytes >= 0x80 allowed too (Zot's latency: `µs`). */
static inline int take_string(scan_cursor *cursor, byte_span *value, int also_high) {
  if (cursor->at >= cursor->end || cursor->bytes[cursor->at] != '"') return 0;
  size_t close = find_plain_quote(cursor, cursor->at + 1, also_high);
  if (close >= cursor->end) return 0;
  value->start = cursor->at + 1;
  value->end = close;
  cursor->at = close + 1;
  return 1;
}

/* Digits → the span (validity of the number is the caller's check). */
static inline void take_digits(scan_cursor *cursor, byte_span *value) {
  size_t i = cursor->at;
  while (i < cursor->end && cursor->bytes[i] >= '0' && cursor->bytes[i] <= '9') i++;
  value->start = cursor->at;
  value->end = i;
  cursor->at = i;
}

#endif
