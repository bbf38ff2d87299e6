/* The Node-API face of the line scanners: createZotScanner(), createTemplateScanner(spec), scan(scanner, bytes,
 * from, to, rows) → rows written. Loaded by src/collect/native/load-line-scanner.ts. */
#include "scan-rows.h"
#include "scan-template.h"
#include "scan-zot.h"
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#define SCANNER_VERSION 2

typedef enum { KIND_ZOT = 1, KIND_TEMPLATE = 2 } scanner_kind;

typedef struct {
  scanner_kind kind;
  union {
    zot_scanner zot;
    template_scanner template;
  } as;
} scanner;

#define CHECK(env, call)                                                                                         \
  do {                                                                                                           \
    if ((call) != napi_ok) {                                                                                     \
      napi_throw_error((env), "ROCMPERF_NATIVE", "line scanner: Node-API call failed: " #call);                \
      return NULL;                                                                                               \
    }                                                                                                            \
  } while (0)

static napi_value fail(napi_env env, const char *message) {
  napi_throw_type_error(env, "ROCMPERF_NATIVE", message);
  return NULL;
}

static void free_scanner(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  scanner *found = data;
  if (found->kind == KIND_ZOT) intern_free(&found->as.zot.names);
  else free_template_scanner(&found->as.template);
  free(found);
}

/* Marks the scanner objects, so scan() refuses an external made by another addon instead of reading it as one. */
static const napi_type_tag scanner_tag = {0x726f636d70657266ULL, 0x7363616e6e657231ULL};

static napi_value wrap_scanner(napi_env env, scanner *created) {
  napi_value external;
  if (napi_create_external(env, created, free_scanner, NULL, &external) != napi_ok) {
    free_scanner(env, created, NULL);
    return fail(env, "line scanner: cannot create the scanner object");
  }
  if (napi_type_tag_object(env, external, &scanner_tag) != napi_ok)
    return fail(env, "line scanner: cannot tag the scanner object");
  return external;
}

/* A zeroed scanner of `kind` with its intern table ready; NULL when memory is short. */
static scanner *allocate_scanner(scanner_kind kind) {
  scanner *created = calloc(1, sizeof *created);
  if (created == NULL) return NULL;
  created->kind = kind;
  if (!intern_init(kind == KIND_ZOT ? &created->as.zot.names : &created->as.template.names)) {
    free(created);
    return NULL;
  }
  return created;
}

static napi_value create_zot_scanner(napi_env env, napi_callback_info info) {
  (void)info;
  scanner *created = allocate_scanner(KIND_ZOT);
  if (created == NULL) return fail(env, "line scanner: out of memory");
  return wrap_scanner(env, created);
}

static int copy_buffer(napi_env env, napi_value value, owned_bytes *out) {
  void *data;
  size_t length;
  bool is_buffer;
  if (napi_is_buffer(env, value, &is_buffer) != napi_ok || !is_buffer) return 0;
  if (napi_get_buffer_info(env, value, &data, &length) != napi_ok) return 0;
  out->bytes = malloc(length + 1);
  if (out->bytes == NULL) return 0;
  if (length > 0) memcpy(out->bytes, data, length); /* an empty Buffer's data may be NULL */
  out->length = length;
  return 1;
}

/* spec: { literals: Buffer[], quoted: number[], decoders: number[], davRoot: Buffer } */
static int read_template_spec(napi_env env, napi_value spec, template_scanner *out) {
  napi_value literals, quoted, decoders, dav_root;
  uint32_t literal_count, field_count, decoder_count;
  if (napi_get_named_property(env, spec, "literals", &literals) != napi_ok ||
      napi_get_named_property(env, spec, "quoted", &quoted) != napi_ok ||
      napi_get_named_property(env, spec, "decoders", &decoders) != napi_ok ||
      napi_get_named_property(env, spec, "davRoot", &dav_root) != napi_ok ||
      napi_get_array_length(env, literals, &literal_count) != napi_ok ||
      napi_get_array_length(env, quoted, &field_count) != napi_ok ||
      napi_get_array_length(env, decoders, &decoder_count) != napi_ok)
    return 0;
  if (field_count > TEMPLATE_MAX_FIELDS || literal_count != field_count + 1 || decoder_count != field_count) return 0;
  out->field_count = field_count;
  for (uint32_t i = 0; i <= field_count; i++) {
    napi_value literal;
    if (napi_get_element(env, literals, i, &literal) != napi_ok || !copy_buffer(env, literal, &out->literals[i]))
      return 0;
  }
  for (uint32_t i = 0; i < field_count; i++) {
    napi_value item;
    int32_t flag, decoder;
    if (napi_get_element(env, quoted, i, &item) != napi_ok || napi_get_value_int32(env, item, &flag) != napi_ok ||
        napi_get_element(env, decoders, i, &item) != napi_ok ||
        napi_get_value_int32(env, item, &decoder) != napi_ok || decoder < DECODE_NONE ||
        decoder > DECODE_SCCACHE_PATH)
      return 0;
    out->fields[i].quoted = flag != 0;
    out->fields[i].decoder = decoder;
  }
  return copy_buffer(env, dav_root, &out->dav_root);
}

static napi_value create_template_scanner(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value spec;
  CHECK(env, napi_get_cb_info(env, info, &argc, &spec, NULL, NULL));
  if (argc < 1) return fail(env, "createTemplateScanner(spec): spec missing");
  scanner *created = allocate_scanner(KIND_TEMPLATE);
  if (created == NULL) return fail(env, "line scanner: out of memory");
  if (!read_template_spec(env, spec, &created->as.template)) {
    free_scanner(env, created, NULL);
    return fail(env, "createTemplateScanner(spec): expected { literals: Buffer[n+1], quoted: number[n], "
                     "decoders: number[n], davRoot: Buffer } with n <= 64");
  }
  return wrap_scanner(env, created);
}

static napi_value to_number(napi_env env, double value) {
  napi_value result;
  CHECK(env, napi_create_double(env, value, &result));
  return result;
}

/* scan(scanner, bytes: Buffer, from, to, rows: Float64Array) → rows written (at most rows.length / stride). */
static napi_value scan(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 5) return fail(env, "scan(scanner, bytes, from, to, rows): 5 arguments expected");
  scanner *found;
  void *bytes, *rows_data;
  size_t bytes_length, rows_length, rows_offset;
  napi_typedarray_type type;
  napi_value rows_buffer;
  int64_t from, to;
  bool is_scanner = false;
  napi_valuetype handle_type;
  if (napi_typeof(env, argv[0], &handle_type) != napi_ok || handle_type != napi_external ||
      napi_check_object_type_tag(env, argv[0], &scanner_tag, &is_scanner) != napi_ok || !is_scanner ||
      napi_get_value_external(env, argv[0], (void **)&found) != napi_ok)
    return fail(env, "scan: the first argument is not a scanner");
  if (napi_get_buffer_info(env, argv[1], &bytes, &bytes_length) != napi_ok)
    return fail(env, "scan: bytes must be a Buffer");
  if (napi_get_value_int64(env, argv[2], &from) != napi_ok || napi_get_value_int64(env, argv[3], &to) != napi_ok ||
      from < 0 || to < from || (uint64_t)to > bytes_length)
    return fail(env, "scan: from and to must satisfy 0 <= from <= to <= bytes.length");
  if (napi_get_typedarray_info(env, argv[4], &type, &rows_length, &rows_data, &rows_buffer, &rows_offset) !=
          napi_ok ||
      type != napi_float64_array)
    return fail(env, "scan: rows must be a Float64Array");
  size_t stride = found->kind == KIND_ZOT ? ZOT_STRIDE : template_stride(&found->as.template);
  size_t max_rows = rows_length / stride;
  size_t count = found->kind == KIND_ZOT
                     ? scan_zot_lines(&found->as.zot, bytes, (size_t)from, (size_t)to, rows_data, max_rows)
                     : scan_template_lines(&found->as.template, bytes, (size_t)from, (size_t)to, rows_data,
                                           max_rows);
  return to_number(env, (double)count);
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"createZotScanner", NULL, create_zot_scanner, NULL, NULL, NULL, napi_enumerable, NULL},
      {"createTemplateScanner", NULL, create_template_scanner, NULL, NULL, NULL, napi_enumerable, NULL},
      {"scan", NULL, scan, NULL, NULL, NULL, napi_enumerable, NULL},
      {"version", NULL, NULL, NULL, NULL, to_number(env, SCANNER_VERSION), napi_enumerable, NULL},
      {"zotStride", NULL, NULL, NULL, NULL, to_number(env, ZOT_STRIDE), napi_enumerable, NULL},
  };
  CHECK(env, napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
