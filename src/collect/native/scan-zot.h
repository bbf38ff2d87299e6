#ifndef ROCM_PERF_SCAN_ZOT_H
#define ROCM_PERF_SCAN_ZOT_H
#include "intern-table.h"
#include "parse-values.h"

typedef struct {
  intern_table names;
  rfc3339_cache time_cache;
} zot_scanner;

/* Reads the lines of bytes[from, to) (each ending in a newline before `to`) into rows of ZOT_STRIDE doubles, at
 * most `max_rows`; returns the rows written. A line the scanner does not read exactly as the TypeScript fast path
 * (parse-zot-line-bytes.ts) would is declined (ROW_ACCEPTED 0), never guessed. */
size_t scan_zot_lines(zot_scanner *scanner, const uint8_t *bytes, size_t from, size_t to, double *rows,
                      size_t max_rows);

#endif
