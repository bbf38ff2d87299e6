#include "intern-table.h"
#include <stdlib.h>
#include <string.h>

int intern_init(intern_table *table) {
  memset(table, 0, sizeof *table);
  table->capacity = 1024;
  table->slots = malloc(sizeof(intern_slot) * table->capacity);
  table->arena_capacity = 64 * 1024;
  table->arena = malloc(table->arena_capacity);
  if (table->slots == NULL || table->arena == NULL) {
    intern_free(table);
    return 0;
  }
  for (uint32_t i = 0; i < table->capacity; i++) table->slots[i].id = -1;
  return 1;
}

void intern_free(intern_table *table) {
  free(table->slots);
  free(table->arena);
  memset(table, 0, sizeof *table);
}

static uint64_t read_word(const uint8_t *bytes) {
  uint64_t word;
  memcpy(&word, bytes, 8);
  return word;
}

/* A multiply-xor hash over 8-byte words (keys are short: addresses, repository names, methods). */
static uint32_t hash_key(uint8_t space, const uint8_t *bytes, size_t length) {
  uint64_t hash = 0x9e3779b97f4a7c15ull ^ ((uint64_t)space << 56) ^ length;
  size_t i = 0;
  for (; i + 8 <= length; i += 8) hash = (hash ^ read_word(bytes + i)) * 0xff51afd7ed558ccdull;
  if (i < length) {
    uint64_t tail = 0;
    memcpy(&tail, bytes + i, length - i);
    hash = (hash ^ tail) * 0xc4ceb9fe1a85ec53ull;
  }
  hash ^= hash >> 29;
  return (uint32_t)(hash ^ (hash >> 32));
}

static int grow_slots(intern_table *table) {
  uint32_t capacity = table->capacity * 2;
  intern_slot *slots = malloc(sizeof(intern_slot) * capacity);
  if (slots == NULL) return 0;
  for (uint32_t i = 0; i < capacity; i++) slots[i].id = -1;
  for (uint32_t i = 0; i < table->capacity; i++) {
    intern_slot slot = table->slots[i];
    if (slot.id < 0) continue;
    uint32_t at = slot.hash & (capacity - 1);
    while (slots[at].id >= 0) at = (at + 1) & (capacity - 1);
    slots[at] = slot;
  }
  free(table->slots);
  table->slots = slots;
  table->capacity = capacity;
  return 1;
}

/* Room for `length` more arena bytes (the space byte is stored first). */
static int reserve_arena(intern_table *table, size_t length) {
  if (table->arena_used + length <= table->arena_capacity) return 1;
  size_t capacity = table->arena_capacity;
  while (table->arena_used + length > capacity) capacity *= 2;
  uint8_t *arena = realloc(table->arena, capacity);
  if (arena == NULL) return 0;
  table->arena = arena;
  table->arena_capacity = capacity;
  return 1;
}

int32_t intern_bytes(intern_table *table, uint8_t space, const uint8_t *bytes, size_t length) {
  if (table->slots == NULL || length > INTERN_MAX_KEY_BYTES) return -1;
  uint32_t hash = hash_key(space, bytes, length);
  uint32_t mask = table->capacity - 1;
  for (uint32_t at = hash & mask;; at = (at + 1) & mask) {
    intern_slot *slot = &table->slots[at];
    if (slot->id < 0) break;
    if (slot->hash == hash && slot->length == length + 1 && table->arena[slot->offset] == space &&
        memcmp(table->arena + slot->offset + 1, bytes, length) == 0)
      return slot->id;
  }
  if (table->count >= INTERN_MAX_ENTRIES) return -1;
  if ((table->count + 1) * 2 > table->capacity && !grow_slots(table)) return -1;
  if (!reserve_arena(table, length + 1)) return -1;
  mask = table->capacity - 1;
  uint32_t at = hash & mask;
  while (table->slots[at].id >= 0) at = (at + 1) & mask;
  intern_slot *slot = &table->slots[at];
  slot->hash = hash;
  slot->offset = (uint32_t)table->arena_used;
  slot->length = (uint32_t)length + 1;
  slot->id = (int32_t)table->count++;
  table->arena[table->arena_used] = space;
  memcpy(table->arena + table->arena_used + 1, bytes, length);
  table->arena_used += length + 1;
  return slot->id;
}
