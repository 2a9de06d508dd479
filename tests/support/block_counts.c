/* The block SpMM's row order and block counts on the CPU (tcs_test_support.h): an
 * independent count of what cpp/formats/row_reorder and the block preprocess report,
 * for gpu_spmm_blocks and blocks_emulation. */
#include "tcs_test_support.h"

#include <stdlib.h>

static unsigned column_hash(int column, unsigned s) {
    unsigned h = (unsigned)column * 0x9E3779B1u + s;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

/* qsort has no context argument: the keys of the sort in progress. */
static const uint64_t* sort_keys;
static int by_key(const void* x, const void* y) {
    const int a = *(const int*)x, b = *(const int*)y;
    if (sort_keys[a] != sort_keys[b]) return sort_keys[a] < sort_keys[b] ? -1 : 1;
    return (a > b) - (a < b); /* stable */
}
static int by_int(const void* x, const void* y) {
    const int a = *(const int*)x, b = *(const int*)y;
    return (a > b) - (a < b);
}

int tcst_signature_order(const tcst_csr* a, int* order) {
    uint64_t* key = (uint64_t*)malloc((size_t)a->rows * sizeof(uint64_t) + 8);
    if (key == NULL) return -1;
    for (int64_t i = 0; i < a->rows; ++i) {
        unsigned h0 = ~0u, h1 = ~0u;
        for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
            const unsigned x = column_hash(a->col_idx[e], 0x2545F491u), y = column_hash(a->col_idx[e], 0x9E3779B9u);
            h0 = x < h0 ? x : h0;
            h1 = y < h1 ? y : h1;
        }
        key[i] = ((uint64_t)h0 << 32) | h1;
        order[i] = (int)i;
    }
    sort_keys = key;
    qsort(order, (size_t)a->rows, sizeof(int), by_key);
    free(key);
    return 0;
}

int64_t tcst_count_blocks(const tcst_csr* a, const int* order) {
    int64_t blocks = 0;
    int* cols = (int*)malloc((size_t)a->nnz * sizeof(int) + 4);
    if (cols == NULL) return -1;
    for (int64_t w = 0; w < a->rows; w += 32) {
        int64_t count = 0;
        for (int64_t p = w; p < w + 32 && p < a->rows; ++p) {
            const int i = order ? order[p] : (int)p;
            for (int e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) cols[count++] = a->col_idx[e];
        }
        qsort(cols, (size_t)count, sizeof(int), by_int);
        int64_t distinct = 0;
        for (int64_t q = 0; q < count; ++q) distinct += q == 0 || cols[q] != cols[q - 1];
        blocks += (distinct + 15) / 16;
    }
    free(cols);
    return blocks;
}
