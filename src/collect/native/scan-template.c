/* nginx JSON access lines, walked along their log_format template. A quoted value ends at the next `"`; an
 * unquoted one at the first byte of the literal after it, which it may not hold. */
#include "scan-template.h"
#include "scan-cursor.h"
#include "scan-lines.h"
#include "scan-rows.h"
#include <stdlib.h>
#include <string.h>

size_t template_stride(const template_scanner *scanner) {
  return TPL_HEAD + TPL_FIELD_STRIDE * scanner->field_count;
}

void free_template_scanner(template_scanner *scanner) {
  for (size_t i = 0; i <= scanner->field_count && i <= TEMPLATE_MAX_FIELDS; i++) free(scanner->literals[i].bytes);
  free(scanner->dav_root.bytes);
  intern_free(&scanner->names);
}

/* String.prototype.lastIndexOf of one byte: the largest index <= from (clamped to [0, length - 1]), else -1. */
static long last_index_of(const uint8_t *text, size_t length, uint8_t byte, long from) {
  if (length == 0) return -1;
  long at = from < 0 ? 0 : from > (long)length - 1 ? (long)length - 1 : from;
  for (; at >= 0; at--)
    if (text[at] == byte) return at;
  return -1;
}

/* parseSccachePath (classify-sccache.ts) of uri bytes[start, end): flags, and the key prefix's span when any. */
static int read_sccache_path(const template_scanner *scanner, const uint8_t *bytes, byte_span uri,
                             byte_span *prefix) {
  const uint8_t *query = memchr(bytes + uri.start, '?', uri.end - uri.start);
  size_t path_end = query == NULL ? uri.end : (size_t)(query - bytes);
  size_t rel = uri.start;
  const owned_bytes *root = &scanner->dav_root;
  if (path_end - uri.start >= root->length && memcmp(bytes + uri.start, root->bytes, root->length) == 0)
    rel += root->length;
  else
    while (rel < path_end && bytes[rel] == '/') rel++;
  const uint8_t *text = bytes + rel;
  size_t length = path_end - rel;
  long last_slash = last_index_of(text, length, '/', (long)length);
  size_t last_start = (size_t)(last_slash + 1), last_length = length - last_start;
  if (last_length == 14 && memcmp(text + last_start, ".sccache_check", 14) == 0) {
    prefix->start = rel;
    prefix->end = last_slash < 0 ? rel : rel + (size_t)last_slash;
    return SCCACHE_IS_CHECK | SCCACHE_HAS_PREFIX;
  }
  if (last_slash < 0 || last_length <= 3) return 0;
  long c_slash = last_index_of(text, length, '/', last_slash - 1);
  long b_slash = c_slash < 1 ? -1 : last_index_of(text, length, '/', c_slash - 1);
  if (c_slash != last_slash - 2 || b_slash != c_slash - 2 || b_slash < 1) return 0;
  long a_slash = last_index_of(text, length, '/', b_slash - 1);
  if (a_slash != b_slash - 2) return 0;
  const uint8_t *last = text + last_start;
  if (last[0] != text[a_slash + 1] || last[1] != text[a_slash + 3] || last[2] != text[a_slash + 5]) return 0;
  prefix->start = rel;
  prefix->end = a_slash < 0 ? rel : rel + (size_t)a_slash;
  return SCCACHE_IS_KEY | SCCACHE_HAS_PREFIX;
}

/* The value's decoding into its slots; 0 when the decoder declines the line. */
static int decode_value(template_scanner *scanner, const uint8_t *bytes, int decoder, byte_span value,
                        double *slots) {
  const uint8_t *text = bytes + value.start;
  size_t length = value.end - value.start;
  double number;
  byte_span prefix;
  switch (decoder) {
  case DECODE_NONE:
    return 1;
  case DECODE_INTERN:
    slots[TPL_FIELD_VALUE] = intern_bytes(&scanner->names, 'v', text, length);
    return 1;
  case DECODE_COUNT_OR_NONE:
    slots[TPL_FIELD_VALUE] = parse_count(text, length, &number) ? number : -1;
    return 1;
  case DECODE_COUNT:
    return parse_count(text, length, &slots[TPL_FIELD_VALUE]);
  case DECODE_SECONDS_MS:
    return parse_seconds_ms(text, length, &slots[TPL_FIELD_VALUE]);
  case DECODE_RFC3339_MS:
    return parse_rfc3339_ms(&scanner->time_cache, text, length, &slots[TPL_FIELD_VALUE]);
  case DECODE_SCCACHE_PATH: {
    int flags = read_sccache_path(scanner, bytes, value, &prefix);
    slots[TPL_FIELD_AUX_A] = flags;
    slots[TPL_FIELD_VALUE] = -1;
    if (flags & SCCACHE_HAS_PREFIX) {
      slots[TPL_FIELD_VALUE] = intern_bytes(&scanner->names, 'p', bytes + prefix.start, prefix.end - prefix.start);
      slots[TPL_FIELD_AUX_B] = (double)prefix.start;
      slots[TPL_FIELD_AUX_C] = (double)prefix.end;
    }
    return 1;
  }
  default:
    return 0;
  }
}

/* A value from the cursor on: quoted values end at `"`, unquoted ones at `stop` (the next literal's first byte). */
static int take_value(scan_cursor *cursor, int quoted, int stop, byte_span *value) {
  size_t i = cursor->at;
  if (quoted) {
    i = find_plain_quote(cursor, i, 0);
    if (i >= cursor->end) return 0;
  } else {
    for (; i < cursor->end; i++) {
      uint8_t code = cursor->bytes[i];
      if (code == '"' || code == stop) break;
      if (!plain_byte[code]) return 0;
    }
    if (i == cursor->end && stop >= 0) return 0;
  }
  value->start = cursor->at;
  value->end = i;
  cursor->at = i;
  return 1;
}

static int read_line(template_scanner *scanner, const uint8_t *bytes, byte_span line, size_t limit, double *row) {
  uint64_t quotes[LINE_MASK_WORDS];
  int plain = mask_plain_line(bytes, line.start, line.end, limit, quotes);
  scan_cursor cursor = {bytes, line.start, line.end, limit, plain ? quotes : NULL, line.start};
  const owned_bytes *first = &scanner->literals[0];
  if (first->length == 0 || first->bytes[0] != '{' ||
      !take_literal(&cursor, (const char *)first->bytes, first->length))
    return 0;
  for (size_t i = 0; i < scanner->field_count; i++) {
    const owned_bytes *next = &scanner->literals[i + 1];
    const template_field *field = &scanner->fields[i];
    byte_span value;
    int stop = next->length > 0 ? next->bytes[0] : -1;
    if (!take_value(&cursor, field->quoted, stop, &value)) return 0;
    if (!take_literal(&cursor, (const char *)next->bytes, next->length)) return 0;
    double *slots = row + TPL_HEAD + TPL_FIELD_STRIDE * i;
    slots[TPL_FIELD_START] = (double)value.start;
    slots[TPL_FIELD_END] = (double)value.end;
    if (!decode_value(scanner, bytes, field->decoder, value, slots)) return 0;
  }
  return cursor.at == cursor.end;
}

/* scan_lines' reader: the scanner comes as void *. */
static int read_line_of(void *scanner, const uint8_t *bytes, byte_span line, size_t limit, double *row) {
  return read_line((template_scanner *)scanner, bytes, line, limit, row);
}

size_t scan_template_lines(template_scanner *scanner, const uint8_t *bytes, size_t from, size_t to, double *rows, size_t max_rows) {
  return scan_lines(scanner, read_line_of, template_stride(scanner), bytes, from, to, rows, max_rows);
}
