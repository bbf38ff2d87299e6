/* Zot's session lines, in the two layouts the TypeScript patterns describe (slog >= v2.1.9, zerolog <= v2.1.8):
 * the same keys in the same order, plain strings, integers without leading zeros, the headers object. */
#include "scan-zot.h"
#include "scan-cursor.h"
#include "scan-lines.h"
#include "scan-rows.h"
#include <math.h>
#include <string.h>

typedef struct {
  byte_span time, client, method, path, status, latency, body, content_length;
  int has_content_length; /* the last Content-Length array had a first element */
  int saw_content_length;
} zot_fields;

static int take_integer(scan_cursor *cursor, byte_span *value) {
  take_digits(cursor, value);
  return is_json_integer(cursor->bytes + value->start, value->end - value->start);
}

/* `"key":["v",…]` pairs; remembers the first value of the LAST Content-Length key (JSON.parse keeps the last). */
static int take_headers(scan_cursor *cursor, zot_fields *fields) {
  if (!TAKE(cursor, "{")) return 0;
  if (TAKE(cursor, "}")) return 1;
  for (;;) {
    byte_span key, value;
    if (!take_string(cursor, &key, 0) || !TAKE(cursor, ":[")) return 0;
    int is_length = key.end - key.start == 14 && equal_bytes(cursor->bytes + key.start, "Content-Length", 14);
    int has_value = 0;
    if (!TAKE(cursor, "]")) {
      byte_span first;
      if (!take_string(cursor, &first, 0)) return 0;
      if (is_length) fields->content_length = first;
      has_value = 1;
      while (TAKE(cursor, ","))
        if (!take_string(cursor, &value, 0)) return 0;
      if (!TAKE(cursor, "]")) return 0;
    }
    if (is_length) {
      fields->saw_content_length = 1;
      fields->has_content_length = has_value;
    }
    if (TAKE(cursor, "}")) return 1;
    if (!TAKE(cursor, ",")) return 0;
  }
}

/* From `"clientIP"` to the headers' closing brace, the part both layouts share. */
static int take_request(scan_cursor *cursor, zot_fields *fields) {
  return TAKE(cursor, "\"clientIP\":") && take_string(cursor, &fields->client, 0) &&
         TAKE(cursor, ",\"method\":") && take_string(cursor, &fields->method, 0) &&
         TAKE(cursor, ",\"path\":") && take_string(cursor, &fields->path, 0) &&
         TAKE(cursor, ",\"statusCode\":") && take_integer(cursor, &fields->status) &&
         TAKE(cursor, ",\"latency\":") && take_string(cursor, &fields->latency, 1) &&
         TAKE(cursor, ",\"bodySize\":") && take_integer(cursor, &fields->body) &&
         TAKE(cursor, ",\"headers\":") && take_headers(cursor, fields);
}

static int take_username(scan_cursor *cursor) {
  byte_span username;
  size_t at = cursor->at;
  if (!TAKE(cursor, ",\"username\":")) return 1;
  if (take_string(cursor, &username, 0)) return 1;
  cursor->at = at;
  return 1;
}

static int match_slog(scan_cursor *cursor, zot_fields *fields) {
  byte_span ignored;
  return TAKE(cursor, "{\"time\":") && take_string(cursor, &fields->time, 0) &&
         TAKE(cursor, ",\"level\":\"info\",\"message\":\"HTTP API\",\"module\":\"http\"") &&
         take_username(cursor) && TAKE(cursor, ",\"component\":\"session\",") &&
         take_request(cursor, fields) && TAKE(cursor, ",\"caller\":") && take_string(cursor, &ignored, 0) &&
         TAKE(cursor, ",\"func\":") && take_string(cursor, &ignored, 0) && TAKE(cursor, ",\"goroutine\":") &&
         take_integer(cursor, &ignored) && TAKE(cursor, "}") && cursor->at == cursor->end;
}

static int match_zerolog(scan_cursor *cursor, zot_fields *fields) {
  byte_span ignored;
  if (!TAKE(cursor, "{\"level\":\"info\",\"module\":\"http\"") || !take_username(cursor)) return 0;
  TAKE(cursor, ",\"component\":\"session\"");
  return TAKE(cursor, ",") && take_request(cursor, fields) && TAKE(cursor, ",\"goroutine\":") &&
         take_integer(cursor, &ignored) && TAKE(cursor, ",\"caller\":") && take_string(cursor, &ignored, 0) &&
         TAKE(cursor, ",\"time\":") && take_string(cursor, &fields->time, 0) &&
         TAKE(cursor, ",\"message\":\"HTTP API\"}") && cursor->at == cursor->end;
}

static int to_method(const uint8_t *text, size_t length) {
  if (length == 3 && equal_bytes(text, "GET", 3)) return ZOT_METHOD_GET;
  if (length == 4 && equal_bytes(text, "HEAD", 4)) return ZOT_METHOD_HEAD;
  if (length == 3 && equal_bytes(text, "PUT", 3)) return ZOT_METHOD_PUT;
  if (length == 4 && equal_bytes(text, "POST", 4)) return ZOT_METHOD_POST;
  if (length == 5 && equal_bytes(text, "PATCH", 5)) return ZOT_METHOD_PATCH;
  return 0;
}

/* The client IP of `ipv4:port` or of an address without a colon; 0 for anything else (toClientIp decides). */
static int to_client_ip(const uint8_t *bytes, byte_span address, byte_span *ip) {
  const uint8_t *colon = memchr(bytes + address.start, ':', address.end - address.start);
  if (address.end > address.start && bytes[address.start] == '[') return 0;
  ip->start = address.start;
  if (colon == NULL) {
    ip->end = address.end;
    return 1;
  }
  size_t at = (size_t)(colon - bytes);
  if (memchr(bytes + at + 1, ':', address.end - at - 1) != NULL) return 0;
  ip->end = at;
  return 1;
}

/* Occurrences of /blobs/ and /manifests/ starting at index >= 5 of the path and lying wholly inside it; *blobs and
 * *manifests = the last of each. */
static int count_parts(const uint8_t *bytes, byte_span path, size_t *blobs, size_t *manifests) {
  int count = 0;
  for (size_t at = path.start + 5; at < path.end;) {
    const uint8_t *slash = memchr(bytes + at, '/', path.end - at);
    if (slash == NULL) break;
    at = (size_t)(slash - bytes);
    if (path.end - at >= 7 && equal_bytes(bytes + at, "/blobs/", 7)) {
      count++;
      *blobs = at;
    } else if (path.end - at >= 11 && equal_bytes(bytes + at, "/manifests/", 11)) {
      count += 16;
      *manifests = at;
    }
    at++;
  }
  return count;
}

static int has_byte(const uint8_t *bytes, size_t start, size_t end, uint8_t byte) {
  return end > start && memchr(bytes + start, byte, end - start) != NULL;
}

/* The route of a path the way parse-registry-path.ts reads it, for the plain shapes only: one /blobs/ or one
 * /manifests/, no query, no percent-encoding, no `+`. Everything else stays UNKNOWN. */
static void write_route(zot_scanner *scanner, const uint8_t *bytes, byte_span path, double *row) {
  row[ZOT_ROUTE] = ZOT_ROUTE_UNKNOWN;
  row[ZOT_NAME_ID] = -1;
  if (path.end - path.start < 4 || !equal_bytes(bytes + path.start, "/v2/", 4)) return;
  if (has_byte(bytes, path.start, path.end, '?') || has_byte(bytes, path.start, path.end, '%') ||
      has_byte(bytes, path.start, path.end, '+'))
    return;
  size_t blobs = 0, manifests = 0;
  int parts = count_parts(bytes, path, &blobs, &manifests);
  if (parts != 1 && parts != 16) return;
  int blob_count = parts == 1;
  size_t name_start = path.start + 4, name_end = blob_count == 1 ? blobs : manifests;
  size_t rest = blob_count == 1 ? blobs + 7 : manifests + 11;
  size_t rest_length = path.end - rest;
  int route;
  if (blob_count == 1 && rest_length >= 7 && equal_bytes(bytes + rest, "uploads", 7)) {
    if (rest_length <= 8) return; /* uploads or uploads/: an upload start */
    if (bytes[rest + 7] != '/') route = ZOT_ROUTE_BLOB;
    else {
      route = ZOT_ROUTE_UPLOAD;
      rest += 8;
    }
  } else {
    route = blob_count == 1 ? ZOT_ROUTE_BLOB : ZOT_ROUTE_MANIFEST;
  }
  if (route != ZOT_ROUTE_UPLOAD && (rest == path.end || has_byte(bytes, rest, path.end, '/'))) return;
  row[ZOT_ROUTE] = route;
  row[ZOT_NAME_ID] = intern_bytes(&scanner->names, 'r', bytes + name_start, name_end - name_start);
  row[ZOT_NAME_START] = (double)name_start;
  row[ZOT_NAME_END] = (double)name_end;
  row[ZOT_REF_START] = (double)rest;
  row[ZOT_REF_END] = (double)path.end;
}

static size_t span_length(byte_span span) { return span.end - span.start; }

/* The values of a matched line into its row; 0 when one of them is not what the TypeScript fast path reads. */
static int write_values(zot_scanner *scanner, const uint8_t *bytes, const zot_fields *fields, double *row) {
  double ts_ms, status, body, duration;
  if (!parse_rfc3339_ms(&scanner->time_cache, bytes + fields->time.start, fields->time.end - fields->time.start,
                        &ts_ms))
    return 0;
  int method = to_method(bytes + fields->method.start, fields->method.end - fields->method.start);
  byte_span ip;
  if (method == 0 || !to_client_ip(bytes, fields->client, &ip)) return 0;
  if (!parse_count(bytes + fields->status.start, fields->status.end - fields->status.start, &status) ||
      !parse_count(bytes + fields->body.start, fields->body.end - fields->body.start, &body))
    return 0;
  double request = -1;
  if (fields->saw_content_length && fields->has_content_length &&
      !parse_count(bytes + fields->content_length.start, span_length(fields->content_length), &request))
    request = -1;
  int read = parse_go_duration_ms(bytes + fields->latency.start, span_length(fields->latency), &duration);
  if (read < 0) return 0;
  if (read == 0) duration = NAN;
  row[ZOT_TS_MS] = ts_ms;
  row[ZOT_METHOD] = method;
  row[ZOT_STATUS] = status;
  row[ZOT_DURATION_MS] = duration;
  row[ZOT_RESPONSE_BYTES] = body;
  row[ZOT_REQUEST_BYTES] = request;
  row[ZOT_CLIENT_ID] = intern_bytes(&scanner->names, 'c', bytes + ip.start, ip.end - ip.start);
  row[ZOT_CLIENT_START] = (double)ip.start;
  row[ZOT_CLIENT_END] = (double)ip.end;
  row[ZOT_PATH_START] = (double)fields->path.start;
  row[ZOT_PATH_END] = (double)fields->path.end;
  if (method == ZOT_METHOD_PUT || method == ZOT_METHOD_POST) {
    row[ZOT_ROUTE] = ZOT_ROUTE_UNKNOWN;
    row[ZOT_NAME_ID] = -1;
    } else {
    write_route(scanner, bytes, fields->path, row);
  }
  return 1;
}

static int read_line(zot_scanner *scanner, const uint8_t *bytes, byte_span line, size_t limit, double *row) {
  zot_fields fields;
  memset(&fields, 0, sizeof fields);
  size_t start = line.start, end = line.end;
  uint64_t quotes[LINE_MASK_WORDS];
  int plain = mask_plain_line(bytes, start, end, limit, quotes);
  scan_cursor cursor = {bytes, start, end, limit, plain ? quotes : NULL, start};
  int is_slog = end - start > 2 && bytes[start + 2] == 't';
  if (!(is_slog ? match_slog(&cursor, &fields) : match_zerolog(&cursor, &fields))) return 0;
  return write_values(scanner, bytes, &fields, row);
}

/* scan_lines' reader: the scanner comes as void *. */
static int read_line_of(void *scanner, const uint8_t *bytes, byte_span line, size_t limit, double *row) {
  return read_line((zot_scanner *)scanner, bytes, line, limit, row);
}

size_t scan_zot_lines(zot_scanner *scanner, const uint8_t *bytes, size_t from, size_t to, double *rows, size_t max_rows) {
  return scan_lines(scanner, read_line_of, ZOT_STRIDE, bytes, from, to, rows, max_rows);
}
