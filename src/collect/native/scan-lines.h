/* The line loop both scanners share: find each line of bytes[from, to), write its row head, let the format's reader
 * fill the rest of the row. */
#ifndef ROCM_PERF_SCAN_LINES_H
#define ROCM_PERF_SCAN_LINES_H
#include "scan-cursor.h"

/* Reads one line (without its newline and one trailing CR) into `row`; 1 when accepted, 0 when declined. `limit`
 * is the end of the scanned range: bytes up to it may be read. */
typedef int (*line_reader)(void *scanner, const uint8_t *bytes, byte_span line, size_t limit, double *row);

/* Rows of `stride` doubles for the lines of bytes[from, to), at most `max_rows`; returns the rows written. A line
 * without a newline before `to` is not read (it is the caller's partial last line). */
size_t scan_lines(void *scanner, line_reader read, size_t stride, const uint8_t *bytes, size_t from, size_t to,
                  double *rows, size_t max_rows);

#endif
