/*
 * The shapes at the edges of SpGEMM that the SpGEMM tests run (m, n or k of 0, A or B
 * without entries, 1 x 1, rectangular, one row of C 150 long from 1 x 1 operands): one
 * table for gpu_spgemm_hash and gpu_spgemm_tiles (all of it, through
 * tcst_spgemm_protocol.h) and for hash_emulation and tiles_emulation (a selection each,
 * by the indices below). A and B are uniform: m x k with a_per_row entries per row,
 * k x n with b_per_row. Plain C, so that the C and the C++ tests include it alike.
 */
#ifndef TCST_EDGE_SHAPES_H_
#define TCST_EDGE_SHAPES_H_

#include <stdint.h>

typedef struct {
    const char* name;
    int64_t m, k, n;
    int a_per_row, b_per_row;
} tcst_edge_shape;

/* The first TCST_EDGE_TINY shapes have every dimension at most 5. */
enum { TCST_EDGE_TINY = 6, TCST_EDGE_RECTANGULAR = 6, TCST_EDGE_LONG_ROW = 7, TCST_EDGE_SHAPES = 8 };

static const tcst_edge_shape tcst_edge_shapes[TCST_EDGE_SHAPES] = {
    {"m = 0", 0, 5, 4, 2, 2},         {"n = 0", 4, 5, 0, 2, 0},
    {"k = 0", 4, 0, 3, 0, 0},         {"nnz(A) = 0", 4, 5, 3, 0, 2},
    {"nnz(B) = 0", 4, 5, 3, 2, 0},    {"1 x 1", 1, 1, 1, 1, 1},
    {"rectangular", 30, 50, 7, 6, 3}, {"1 x 1 x 200", 1, 1, 200, 1, 150},
};

#endif /* TCST_EDGE_SHAPES_H_ */
