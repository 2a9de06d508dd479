/* The table of live objects behind the opaque handles, in C so that libtcsparse
 * (lib/live_objects.cpp) and the shim (shim/objects.c) share it; each includes this file
 * once and owns its own table.
 *
 * Why a generation-tagged table rather than a set of live addresses: an address comes
 * back from malloc as soon as its object is freed, so a set cannot tell a stale handle
 * from the new object at the same address, and destroying the stale one would destroy
 * the new one. A handle here is not an address but (generation, slot, kind): a slot's
 * generation changes each time the slot is given out again, so a stale handle never
 * matches, and checking one reads only the table, never memory that was freed. Lookups
 * take no lock and write nothing (two acquire loads: no shared cache line is written on
 * the products' path, so threads do not contend); creating and destroying take one
 * mutex for the free list. The chunks of slots live as long as the process.
 *
 * A handle: generation (32 bits) | slot (24 bits) | kind (8 bits, odd). An odd low byte
 * means no aligned pointer (a foreign object, the other library's) is ever taken for a
 * live handle. */
#ifndef TCSPARSE_LIVE_TABLE_H_
#define TCSPARSE_LIVE_TABLE_H_

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { live_chunk_bits = 12, live_chunk_count = 4096 }; /* 2^24 live objects at most */

typedef struct live_slot {
    uint64_t handle; /* the live handle in this slot; 0 while free */
    void* object;
    uint32_t generation;
    uint32_t next_free; /* slot + 1 of the next free slot; 0 ends the list */
} live_slot;

static live_slot* live_chunks[live_chunk_count];
static uint32_t live_slots_made;
static uint32_t live_free_list; /* slot + 1 */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static live_slot* live_slot_at(uint64_t slot) {
    live_slot* chunk = __atomic_load_n(&live_chunks[slot >> live_chunk_bits], __ATOMIC_ACQUIRE);
    return chunk != NULL ? &chunk[slot & ((1u << live_chunk_bits) - 1)] : NULL;
}

/* A new handle of `kind` for `object`; 0 when memory or slots run out. */
static uint64_t live_table_add(void* object, unsigned kind) {
    pthread_mutex_lock(&live_lock);
    uint32_t slot;
    if (live_free_list != 0) {
        slot = live_free_list - 1;
        live_free_list = live_slot_at(slot)->next_free;
    } else {
        slot = live_slots_made;
        if (slot >= (uint32_t)live_chunk_count << live_chunk_bits) {
            pthread_mutex_unlock(&live_lock);
            return 0;
        }
        live_slot** chunk = &live_chunks[slot >> live_chunk_bits];
        if (*chunk == NULL) {
            live_slot* made = (live_slot*)calloc((size_t)1 << live_chunk_bits, sizeof *made);
            if (made == NULL) {
                pthread_mutex_unlock(&live_lock);
                return 0;
            }
            __atomic_store_n(chunk, made, __ATOMIC_RELEASE);
        }
        ++live_slots_made;
    }
    live_slot* s = live_slot_at(slot);
    if (++s->generation == 0) s->generation = 1;
    const uint64_t handle = (uint64_t)s->generation << 32 | (uint64_t)slot << 8 | (kind & 0xffu);
    __atomic_store_n(&s->object, object, __ATOMIC_RELAXED);
    __atomic_store_n(&s->handle, handle, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&live_lock);
    return handle;
}

/* The object of a live handle of `kind`, or NULL. */
static void* live_table_find(uint64_t handle, unsigned kind) {
    if ((handle & 0xffu) != kind) return NULL;
    const live_slot* s = live_slot_at((handle >> 8) & 0xffffffu);
    if (s == NULL || __atomic_load_n(&s->handle, __ATOMIC_ACQUIRE) != handle) return NULL;
    return __atomic_load_n(&s->object, __ATOMIC_RELAXED);
}

/* Ends a live handle and returns its object, or NULL when it was not live. Of two
 * threads removing the same handle, one gets the object. */
static void* live_table_remove(uint64_t handle, unsigned kind) {
    if ((handle & 0xffu) != kind) return NULL;
    const uint32_t slot = (uint32_t)((handle >> 8) & 0xffffffu);
    live_slot* s = live_slot_at(slot);
    if (s == NULL) return NULL;
    void* object = __atomic_load_n(&s->object, __ATOMIC_RELAXED);
    uint64_t expected = handle;
    if (!__atomic_compare_exchange_n(&s->handle, &expected, 0, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return NULL;
    pthread_mutex_lock(&live_lock);
    s->next_free = live_free_list;
    live_free_list = slot + 1;
    pthread_mutex_unlock(&live_lock);
    return object;
}

#endif /* TCSPARSE_LIVE_TABLE_H_ */
