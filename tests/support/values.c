/* Values of the four types tcsparse computes on, written and read on the host (the 16-bit
 * conversions are halves.c's). */
#include "tcs_test_support.h"

#include <library_types.h>

#include <math.h>
#include <string.h>

size_t tcst_value_size(int type) {
    return type == CUDA_R_64F ? 8 : type == CUDA_R_32F ? 4 : 2;
}

void tcst_value_put(void* base, size_t i, int type, double x) {
    switch (type) {
    case CUDA_R_64F: ((double*)base)[i] = x; break;
    case CUDA_R_32F: ((float*)base)[i] = (float)x; break;
    case CUDA_R_16F: ((uint16_t*)base)[i] = tcst_half_bits((float)x); break;
    default: ((uint16_t*)base)[i] = tcst_bf16_bits((float)x); break;
    }
}

double tcst_value_get(const void* base, size_t i, int type) {
    switch (type) {
    case CUDA_R_64F: return ((const double*)base)[i];
    case CUDA_R_32F: return ((const float*)base)[i];
    case CUDA_R_16F: return tcst_half_value(((const uint16_t*)base)[i]);
    default: return tcst_bf16_value(((const uint16_t*)base)[i]);
    }
}

double tcst_value_rounded(double x, int type) {
    double slot;
    tcst_value_put(&slot, 0, type, x);
    return tcst_value_get(&slot, 0, type);
}
