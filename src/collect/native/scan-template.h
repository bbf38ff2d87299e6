#ifndef ROCM_PERF_SCAN_TEMPLATE_H
#define ROCM_PERF_SCAN_TEMPLATE_H
#include "intern-table.h"
#include "parse-values.h"

#define TEMPLATE_MAX_FIELDS 64

typedef struct {
  uint8_t *bytes;
  size_t length;
} owned_bytes;

typedef struct {
  int quoted;
  int decoder; /* DECODE_* */
} template_field;

/* A log_format template: literal, value, literal … (parse-log-format.ts), with what each value is decoded as. */
typedef struct {
  owned_bytes literals[TEMPLATE_MAX_FIELDS + 1];
  template_field fields[TEMPLATE_MAX_FIELDS];
  size_t field_count;
  owned_bytes dav_root; /* for DECODE_SCCACHE_PATH */
  intern_table names;
  rfc3339_cache time_cache;
} template_scanner;

size_t template_stride(const template_scanner *scanner);
/* Reads the lines of bytes[from, to) into rows of template_stride doubles, at most `max_rows`; returns the rows
 * written. A line is read only when it follows the template with plain values (what parse-nginx-line-bytes.ts's
 * pattern accepts) and every decoded value is one; any other line is declined (ROW_ACCEPTED 0). */
size_t scan_template_lines(template_scanner *scanner, const uint8_t *bytes, size_t from, size_t to, double *rows,
                           size_t max_rows);
void free_template_scanner(template_scanner *scanner);

#endif
