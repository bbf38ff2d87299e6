/* Values inside a log line, read exactly as the TypeScript parsers read them (src/collect/logs/parse-timestamp.ts,
 * parse-go-duration.ts), so a line gives the same record whichever side reads it. Each returns 1 and sets *out, or
 * returns 0 when the text is not such a value (the caller then declines the line). */
#ifndef ROCM_PERF_PARSE_VALUES_H
#define ROCM_PERF_PARSE_VALUES_H
#include <stddef.h>
#include <stdint.h>

/* Remembers the last timestamp's first 19 bytes (to the second) and their value: log lines come many per second. */
typedef struct {
  uint8_t second[19];
  double second_ms;
  int valid;
} rfc3339_cache;

/* parseRfc3339Span: epoch ms of an RFC 3339 / ISO 8601 time with 0-9 fraction digits (below 1 ms truncated). */
int parse_rfc3339_ms(rfc3339_cache *cache, const uint8_t *text, size_t length, double *out);
/* parseGoDuration: ms of a Go duration (`1h2m3.5s`, `81.9ms`, `8µs`, `0s`); 0: not one (null); -1: a number too
 * long to read here (the caller declines the line). */
int parse_go_duration_ms(const uint8_t *text, size_t length, double *out);
/* 1-15 ASCII digits → their value (what Number() gives for them). */
int parse_count(const uint8_t *text, size_t length, double *out);
/* `0` or a digit 1-9 then digits: a JSON integer without sign, fraction or leading zeros. */
int is_json_integer(const uint8_t *text, size_t length);
/* `digits` or `digits.ddd` (1-3 fraction digits) seconds → Math.round(seconds × 1000). */
int parse_seconds_ms(const uint8_t *text, size_t length, double *out);

#endif
