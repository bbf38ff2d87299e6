#define _GNU_SOURCE /* strtod_l, newlocale */
#include "parse-values.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__APPLE__)
#include <xlocale.h>
#else
#include <locale.h>
#endif

static int digits(const uint8_t *text, size_t count) {
  int value = 0;
  for (size_t i = 0; i < count; i++) {
    unsigned code = (unsigned)text[i] - 48u;
    if (code > 9) return -1;
    value = value * 10 + (int)code;
  }
  return value;
}

/* Days since 1970-01-01 of year/month/1 (proleptic Gregorian), as Date.UTC counts them. */
static int64_t days_from_civil(int64_t year, int64_t month) {
  year -= month <= 2;
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  int64_t year_of_era = year - era * 400;
  int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5;
  int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/* Date.UTC(year, month - 1, day): a day past the month's end rolls over; years 0-99 mean 1900-1999. */
static double to_day_ms(int year, int month, int day) {
  int64_t full_year = year <= 99 ? 1900 + year : year;
  return (double)((days_from_civil(full_year, month) + day - 1) * 86400000LL);
}

static int parse_second_ms(const uint8_t *text, size_t length, double *out) {
  if (length < 20 || text[4] != '-' || text[7] != '-' || text[13] != ':' || text[16] != ':') return 0;
  uint8_t separator = text[10];
  if (separator != 'T' && separator != 't' && separator != ' ') return 0;
  int year = digits(text, 4), month = digits(text + 5, 2), day = digits(text + 8, 2);
  int hours = digits(text + 11, 2), minutes = digits(text + 14, 2), seconds = digits(text + 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hours < 0 || hours > 23 || minutes < 0 ||
      minutes > 59 || seconds < 0 || seconds > 60)
    return 0;
  *out = to_day_ms(year, month, day) + (double)(((hours * 60 + minutes) * 60 + seconds) * 1000);
  return 1;
}

/* The zone at text[at] (`Z`, `+hh:mm`, `+hhmm`) ending the text → offset ms. */
static int parse_zone_ms(const uint8_t *text, size_t at, size_t length, double *out) {
  if (at >= length) return 0;
  uint8_t code = text[at];
  if ((code == 'Z' || code == 'z') && at + 1 == length) {
    *out = 0;
    return 1;
  }
  if (code != '+' && code != '-') return 0;
  size_t colon = at + 3 < length && text[at + 3] == ':' ? 1 : 0;
  if (at + 5 + colon != length) return 0;
  int hours = digits(text + at + 1, 2), minutes = digits(text + at + 3 + colon, 2);
  if (hours < 0 || minutes < 0 || hours > 23 || minutes > 59) return 0;
  *out = (code == '-' ? -1.0 : 1.0) * (double)((hours * 60 + minutes) * 60000);
  return 1;
}

/* The fraction digits from text[at] → whole ms (the first three digits; parse-timestamp.ts sums every digit times
 * its scale and floors, which gives the same: the digits past the third add less than 1). */
static double read_fraction_ms(const uint8_t *text, size_t at, size_t length, size_t *end) {
  int ms = 0;
  size_t i = at;
  for (; i < length && text[i] >= '0' && text[i] <= '9'; i++)
    if (i < at + 3) ms = ms * 10 + (text[i] - '0');
  for (size_t pad = i - at; pad < 3; pad++) ms *= 10;
  *end = i;
  return (double)ms;
}

static int equal_19(const uint8_t *a, const uint8_t *b) {
  uint64_t x[3], y[3];
  memcpy(x, a, 8);
  memcpy(x + 1, a + 8, 8);
  memcpy(x + 2, a + 11, 8);
  memcpy(y, b, 8);
  memcpy(y + 1, b + 8, 8);
  memcpy(y + 2, b + 11, 8);
  return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

int parse_rfc3339_ms(rfc3339_cache *cache, const uint8_t *text, size_t length, double *out) {
  if (length < 20) return 0;
  double second_ms;
  if (cache->valid && equal_19(cache->second, text)) {
    second_ms = cache->second_ms;
  } else {
    if (!parse_second_ms(text, length, &second_ms)) return 0;
    memcpy(cache->second, text, 19);
    cache->second_ms = second_ms;
    cache->valid = 1;
  }
  int has_fraction = text[19] == '.' || text[19] == ',';
  size_t zone_at = 19;
  double fraction_ms = has_fraction ? read_fraction_ms(text, 20, length, &zone_at) : 0;
  if (has_fraction && (zone_at == 20 || zone_at > 29)) return 0;
  double zone_ms;
  if (!parse_zone_ms(text, zone_at, length, &zone_ms)) return 0;
  *out = second_ms + fraction_ms - zone_ms;
  return 1;
}

static int is_digit(uint8_t code) { return code >= '0' && code <= '9'; }

#if defined(__GLIBC__) || defined(__APPLE__)
static locale_t c_locale = (locale_t)0;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static void create_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }
#endif

/* Number() of a decimal text (digits with at most one dot): correctly rounded, in the C locale. */
static int to_double(const uint8_t *text, size_t length, double *out) {
  char buffer[64];
  if (length == 0 || length >= sizeof buffer) return 0;
  memcpy(buffer, text, length);
  buffer[length] = 0;
#if defined(__GLIBC__) || defined(__APPLE__)
  /* Made once per process, whichever thread (worker threads load the addon too) gets here first. */
  pthread_once(&c_locale_once, create_c_locale);
  if (c_locale == (locale_t)0) return 0;
  *out = strtod_l(buffer, NULL, c_locale);
#else
  *out = strtod(buffer, NULL);
#endif
  return 1;
}

/* One unit at text[at] → its length and ms factor; 0 when none (the order of Go's grammar: ms before m). */
static size_t read_unit(const uint8_t *text, size_t at, size_t length, double *factor) {
  size_t left = length - at;
  uint8_t c = text[at];
  if (c == 'h') return *factor = 3600000, 1;
  if (c == 'm' && left >= 2 && text[at + 1] == 's') return *factor = 1, 2;
  if (c == 'm') return *factor = 60000, 1;
  if (c == 's') return *factor = 1000, 1;
  if (c == 'u' && left >= 2 && text[at + 1] == 's') return *factor = 1e-3, 2;
  if (c == 0xc2 && left >= 3 && text[at + 1] == 0xb5 && text[at + 2] == 's') return *factor = 1e-3, 3;
  if (c == 0xce && left >= 3 && text[at + 1] == 0xbc && text[at + 2] == 's') return *factor = 1e-3, 3;
  if (c == 'n' && left >= 2 && text[at + 1] == 's') return *factor = 1e-6, 2;
  return 0;
}

int parse_go_duration_ms(const uint8_t *text, size_t length, double *out) {
  if ((length == 2 && text[0] == '0' && text[1] == 's') || (length == 1 && text[0] == '0')) {
    *out = 0;
    return 1;
  }
  size_t at = length > 0 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  double sign = length > 0 && text[0] == '-' ? -1 : 1;
  if (at >= length) return 0;
  double total = 0;
  while (at < length) {
    size_t start = at;
    if (is_digit(text[at])) {
      while (at < length && is_digit(text[at])) at++;
      if (at < length && text[at] == '.')
        for (at++; at < length && is_digit(text[at]); at++);
    } else if (text[at] == '.' && at + 1 < length && is_digit(text[at + 1])) {
      for (at++; at < length && is_digit(text[at]); at++);
    } else {
      return 0;
    }
    double value, factor;
    if (at >= length) return 0;
    if (!to_double(text + start, at - start, &value)) return -1;
    size_t unit = read_unit(text, at, length, &factor);
    if (unit == 0) return 0;
    total += value * factor;
    at += unit;
  }
  if (!isfinite(total)) return 0;
  *out = sign * total;
  return 1;
}

int parse_count(const uint8_t *text, size_t length, double *out) {
  if (length == 0 || length > 15) return 0;
  int64_t value = 0;
  for (size_t i = 0; i < length; i++) {
    if (!is_digit(text[i])) return 0;
    value = value * 10 + (text[i] - '0');
  }
  *out = (double)value;
  return 1;
}

int is_json_integer(const uint8_t *text, size_t length) {
  if (length == 0 || (text[0] == '0' && length > 1)) return 0;
  for (size_t i = 0; i < length; i++)
    if (!is_digit(text[i])) return 0;
  return 1;
}

int parse_seconds_ms(const uint8_t *text, size_t length, double *out) {
  size_t dot = 0;
  while (dot < length && is_digit(text[dot])) dot++;
  if (dot == 0 || dot > 12) return 0;
  double seconds = 0;
  parse_count(text, dot, &seconds);
  if (dot == length) return *out = seconds * 1000, 1;
  size_t fraction = length - dot - 1;
  if (text[dot] != '.' || fraction < 1 || fraction > 3) return 0;
  int64_t ms = 0;
  for (size_t i = 0; i < 3; i++) {
    uint8_t code = dot + 1 + i < length ? text[dot + 1 + i] : '0';
    if (!is_digit(code)) return 0;
    ms = ms * 10 + (code - '0');
  }
  *out = seconds * 1000 + (double)ms;
  return 1;
}
