#include "scan-lines.h"
#include "scan-rows.h"
#include <string.h>

size_t scan_lines(void *scanner, line_reader read, size_t stride, const uint8_t *bytes, size_t from, size_t to,
                  double *rows, size_t max_rows) {
  size_t count = 0;
  for (size_t start = from; count < max_rows && start < to;) {
    const uint8_t *newline = memchr(bytes + start, '\n', to - start);
    if (newline == NULL) break;
    size_t next = (size_t)(newline - bytes) + 1, end = next - 1;
    if (end > start && bytes[end - 1] == '\r') end--;
    double *row = rows + count * stride;
    row[ROW_LINE_START] = (double)start;
    row[ROW_LINE_END] = (double)end;
    row[ROW_NEXT] = (double)next;
    row[ROW_ACCEPTED] = read(scanner, bytes, (byte_span){start, end}, to, row);
    count++;
    start = next;
  }
  return count;
}
