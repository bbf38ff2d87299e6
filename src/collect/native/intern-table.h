/* Byte strings → small integer ids, so the JavaScript side makes each repeated string (client address, repository,
 * method, key prefix) once instead of once per line. */
#ifndef ROCM_PERF_INTERN_TABLE_H
#define ROCM_PERF_INTERN_TABLE_H
#include <stddef.h>
#include <stdint.h>

#define INTERN_MAX_ENTRIES 65536
#define INTERN_MAX_KEY_BYTES 4096

typedef struct {
  uint32_t hash;
  uint32_t offset;
  uint32_t length;
  int32_t id; /* -1: empty slot */
} intern_slot;

typedef struct {
  intern_slot *slots;
  uint32_t capacity; /* a power of two */
  uint32_t count;
  uint8_t *arena;
  size_t arena_used;
  size_t arena_capacity;
} intern_table;

int intern_init(intern_table *table);
void intern_free(intern_table *table);
/* The id of bytes[0, length) in `space` (ids of different spaces never collide); -1 when the table is full, the key
 * too long, or memory is short (the caller then reads the string itself). */
int32_t intern_bytes(intern_table *table, uint8_t space, const uint8_t *bytes, size_t length);

#endif
