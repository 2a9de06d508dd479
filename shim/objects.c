/* The shim's objects and their two sides: the tcsparse object, and the real cuSPARSE
 * object made on first need from the same fields and brought in step before each use
 * (shim.h says why). Making or re-making a side happens under one lock; a side that is
 * in step is found without it. */
#include "shim.h"

#include "../lib/live_table.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void tcs_shim_lock(void) { pthread_mutex_lock(&lock); }
void tcs_shim_unlock(void) { pthread_mutex_unlock(&lock); }

cusparseStatus_t tcs_shim_publish(void* object, unsigned kind, void* out) {
    const uint64_t handle = live_table_add(object, kind);
    if (handle == 0) {
        free(object);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    *(void**)out = (void*)(uintptr_t)handle;
    return CUSPARSE_STATUS_SUCCESS;
}

void* tcs_shim_withdraw(const void* p, unsigned kind) {
    return live_table_remove((uintptr_t)p, kind);
}

tcs_shim_handle* tcs_shim_handle_of(const void* p) {
    return live_table_find((uintptr_t)p, TCS_SHIM_HANDLE_KIND);
}
tcs_shim_spmat* tcs_shim_spmat_of(const void* p) {
    return live_table_find((uintptr_t)p, TCS_SHIM_SPMAT_KIND);
}
tcs_shim_dnmat* tcs_shim_dnmat_of(const void* p) {
    return live_table_find((uintptr_t)p, TCS_SHIM_DNMAT_KIND);
}
tcs_shim_dnvec* tcs_shim_dnvec_of(const void* p) {
    return live_table_find((uintptr_t)p, TCS_SHIM_DNVEC_KIND);
}
tcs_shim_spgemm* tcs_shim_spgemm_of(const void* p) {
    return live_table_find((uintptr_t)p, TCS_SHIM_SPGEMM_KIND);
}

static void fail_with(cusparseStatus_t* status, cusparseStatus_t s) {
    if (*status == CUSPARSE_STATUS_SUCCESS) *status = s;
}

/* Runs `make` under the lock unless `ready` already holds. */
typedef cusparseStatus_t (*maker)(void* object);
static cusparseStatus_t in_step(void* object, int ready, maker make) {
    if (ready) return CUSPARSE_STATUS_SUCCESS;
    pthread_mutex_lock(&lock);
    const cusparseStatus_t s = make(object);
    pthread_mutex_unlock(&lock);
    return s;
}

/* The object in *slot once `make` has run (NULL, and the status noted, if it failed). */
static void* made(void* object, void* const* slot, int ready, maker make,
                  cusparseStatus_t* status) {
    const cusparseStatus_t s = in_step(object, ready, make);
    if (s == CUSPARSE_STATUS_SUCCESS) return *slot;
    fail_with(status, s);
    return NULL;
}

/* ---- handle --------------------------------------------------------------------- */

static cusparseStatus_t make_real_handle(void* object) {
    tcs_shim_handle* h = object;
    if (h->real != NULL) return CUSPARSE_STATUS_SUCCESS;
    TCS_SHIM_REAL(cusparseCreate, create);
    TCS_SHIM_REAL(cusparseDestroy, destroy);
    TCS_SHIM_REAL(cusparseSetStream, set_stream);
    TCS_SHIM_REAL(cusparseSetPointerMode, set_mode);
    if (create == NULL || destroy == NULL || set_stream == NULL || set_mode == NULL)
        return tcs_shim_absent("cusparseCreate");
    cusparseHandle_t real = NULL;
    cusparseStatus_t s = create(&real);
    if (s == CUSPARSE_STATUS_SUCCESS) s = set_stream(real, h->stream);
    if (s == CUSPARSE_STATUS_SUCCESS) s = set_mode(real, h->pointer_mode);
    if (s != CUSPARSE_STATUS_SUCCESS) {
        if (real != NULL) destroy(real);
        return s;
    }
    __atomic_store_n(&h->real, real, __ATOMIC_RELEASE);
    return CUSPARSE_STATUS_SUCCESS;
}

void* tcs_shim_real_handle(const void* p, cusparseStatus_t* status) {
    if (p == NULL) return NULL;
    tcs_shim_handle* h = tcs_shim_handle_of(p);
    if (h == NULL) {
        fail_with(status, CUSPARSE_STATUS_NOT_INITIALIZED);
        return NULL;
    }
    const int ready = __atomic_load_n(&h->real, __ATOMIC_ACQUIRE) != NULL;
    return made(h, (void* const*)&h->real, ready, make_real_handle, status);
}

tcsHandle_t tcs_shim_tcs_handle(const void* p) {
    const tcs_shim_handle* h = tcs_shim_handle_of(p);
    return h != NULL ? h->tcs : (tcsHandle_t)p;  /* NULL or foreign: tcsparse rejects it */
}

/* ---- sparse matrices ------------------------------------------------------------ */

static int side_in_step(const tcs_shim_spmat* d, const tcs_shim_csr_side* side) {
    return side->nnz == d->nnz && side->offsets == d->offsets && side->columns == d->columns &&
           side->values == d->values;
}

static tcs_shim_csr_side fields_of(const tcs_shim_spmat* d) {
    const tcs_shim_csr_side side = {d->nnz, d->offsets, d->columns, d->values};
    return side;
}

/* The batch and attributes set through the shim, on a new real descriptor. */
static cusparseStatus_t apply_settings(const tcs_shim_spmat* d, cusparseSpMatDescr_t real) {
    cusparseStatus_t s = CUSPARSE_STATUS_SUCCESS;
    if (d->batch_count > 0)
        s = tcs_shim_forward_cusparseCsrSetStridedBatch_real(real, d->batch_count,
                                                             d->offsets_batch_stride,
                                                             d->columns_values_batch_stride);
    if (s == CUSPARSE_STATUS_SUCCESS && d->has_fill_mode)
        s = tcs_shim_forward_cusparseSpMatSetAttribute_real(
            real, CUSPARSE_SPMAT_FILL_MODE, (void*)&d->fill_mode, sizeof d->fill_mode);
    if (s == CUSPARSE_STATUS_SUCCESS && d->has_diag_type)
        s = tcs_shim_forward_cusparseSpMatSetAttribute_real(
            real, CUSPARSE_SPMAT_DIAG_TYPE, (void*)&d->diag_type, sizeof d->diag_type);
    return s;
}

static cusparseStatus_t make_real_csr(void* object) {
    tcs_shim_spmat* d = object;
    if (d->tcs == NULL || (d->real != NULL && side_in_step(d, &d->real_has)))
        return CUSPARSE_STATUS_SUCCESS;
    /* Same sizes: new pointers are a setter away (it keeps what preprocess stored). */
    if (d->real != NULL && d->real_has.nnz == d->nnz && !d->is_const) {
        const cusparseStatus_t s = tcs_shim_forward_cusparseCsrSetPointers_real(
            d->real, d->offsets, d->columns, d->values);
        if (s == CUSPARSE_STATUS_SUCCESS) {
            d->real_has = fields_of(d);
            return s;
        }
    }
    cusparseSpMatDescr_t real = NULL;
    cusparseStatus_t s =
        d->is_const
            ? tcs_shim_forward_cusparseCreateConstCsr(
                  (cusparseConstSpMatDescr_t*)&real, d->rows, d->cols, d->nnz, d->offsets,
                  d->columns, d->values, d->offsets_type, d->columns_type, d->base, d->value_type)
            : tcs_shim_forward_cusparseCreateCsr(&real, d->rows, d->cols, d->nnz, d->offsets,
                                                 d->columns, d->values, d->offsets_type,
                                                 d->columns_type, d->base, d->value_type);
    if (s == CUSPARSE_STATUS_SUCCESS) s = apply_settings(d, real);
    if (s != CUSPARSE_STATUS_SUCCESS) {
        if (real != NULL) tcs_shim_forward_cusparseDestroySpMat_real(real);
        return s;
    }
    if (d->real != NULL) tcs_shim_forward_cusparseDestroySpMat_real(d->real);
    d->real = real;
    d->real_has = fields_of(d);
    return CUSPARSE_STATUS_SUCCESS;
}

void* tcs_shim_real_spmat(const void* p, cusparseStatus_t* status) {
    if (p == NULL) return NULL;
    tcs_shim_spmat* d = tcs_shim_spmat_of(p);
    if (d == NULL) {
        fail_with(status, CUSPARSE_STATUS_NOT_INITIALIZED);
        return NULL;
    }
    const int ready = d->tcs == NULL || (d->real != NULL && side_in_step(d, &d->real_has));
    return made(d, (void* const*)&d->real, ready, make_real_csr, status);
}

void tcs_shim_spmat_pull_real(const void* p) {
    tcs_shim_spmat* d = tcs_shim_spmat_of(p);
    if (d == NULL || d->tcs == NULL || d->real == NULL) return;
    int64_t rows = 0, cols = 0, nnz = 0;
    if (tcs_shim_forward_cusparseSpMatGetSize_real(d->real, &rows, &cols, &nnz) !=
        CUSPARSE_STATUS_SUCCESS)
        return;
    d->nnz = d->real_has.nnz = nnz;  /* the tcsparse side is re-made when next needed */
}

void tcs_shim_spmat_pull_tcs(const void* p) {
    tcs_shim_spmat* d = tcs_shim_spmat_of(p);
    int64_t rows = 0, cols = 0, nnz = 0;
    if (d == NULL || d->tcs == NULL ||
        tcsSpMatGetSize(d->tcs, &rows, &cols, &nnz) != TCS_STATUS_SUCCESS)
        return;
    d->nnz = d->tcs_has.nnz = nnz;  /* the real side is re-made when next needed */
}

static cusparseStatus_t make_tcs_csr(void* object) {
    tcs_shim_spmat* d = object;
    if (side_in_step(d, &d->tcs_has)) return CUSPARSE_STATUS_SUCCESS;
    if (d->tcs_has.nnz == d->nnz && !d->is_const &&
        tcsCsrSetPointers(d->tcs, d->offsets, d->columns, d->values) == TCS_STATUS_SUCCESS) {
        d->tcs_has = fields_of(d);
        return CUSPARSE_STATUS_SUCCESS;
    }
    tcsSpMatDescr_t fresh = NULL;
    tcsConstSpMatDescr_t fresh_const = NULL;
    const tcsStatus_t s =
        d->is_const
            ? tcsCreateConstCsr(&fresh_const, d->rows, d->cols, d->nnz, d->offsets, d->columns,
                                d->values, (tcsIndexType_t)d->offsets_type,
                                (tcsIndexType_t)d->columns_type, (tcsIndexBase_t)d->base,
                                d->value_type)
            : tcsCreateCsr(&fresh, d->rows, d->cols, d->nnz, d->offsets, d->columns, d->values,
                           (tcsIndexType_t)d->offsets_type, (tcsIndexType_t)d->columns_type,
                           (tcsIndexBase_t)d->base, d->value_type);
    if (s != TCS_STATUS_SUCCESS) return TCS_SHIM_STATUS(s);
    tcsDestroySpMat(d->tcs);
    d->tcs = d->is_const ? (tcsSpMatDescr_t)(uintptr_t)fresh_const : fresh;
    d->tcs_has = fields_of(d);
    return CUSPARSE_STATUS_SUCCESS;
}

tcsSpMatDescr_t tcs_shim_tcs_spmat(const void* p, int* accelerable) {
    if (p == NULL) return NULL;
    tcs_shim_spmat* d = tcs_shim_spmat_of(p);
    if (d == NULL) return (tcsSpMatDescr_t)(uintptr_t)p;  /* tcsparse rejects it */
    /* What tcsparse's kernels do not take (yet): cuSPARSE's. Offsets and columns of one
     * width, 32- or 64-bit, go to tcsparse, whose NOT_SUPPORTED (a product or size its
     * kernels lack for 64-bit indices) sends the call back to cuSPARSE. */
    const int one_width = d->offsets_type == d->columns_type &&
                          (d->offsets_type == CUSPARSE_INDEX_32I ||
                           d->offsets_type == CUSPARSE_INDEX_64I);
    if (d->tcs == NULL || d->batch_count > 1 || !one_width) {
        *accelerable = 0;
        return NULL;
    }
    if (in_step(d, side_in_step(d, &d->tcs_has), make_tcs_csr) != CUSPARSE_STATUS_SUCCESS) {
        *accelerable = 0;
        return NULL;
    }
    return d->tcs;
}

cusparseStatus_t tcs_shim_wrap_real_spmat(cusparseSpMatDescr_t real, int is_const, void* out) {
    tcs_shim_spmat* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcs_shim_forward_cusparseDestroySpMat_real(real);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->is_const = is_const;
    d->real = real;
    const cusparseStatus_t s = tcs_shim_publish(d, TCS_SHIM_SPMAT_KIND, out);
    if (s != CUSPARSE_STATUS_SUCCESS) tcs_shim_forward_cusparseDestroySpMat_real(real);
    return s;
}

/* ---- dense matrices and vectors ------------------------------------------------- */

static cusparseStatus_t make_real_dnmat(void* object) {
    tcs_shim_dnmat* d = object;
    if (d->tcs == NULL || (d->real != NULL && d->real_values == d->values))
        return CUSPARSE_STATUS_SUCCESS;
    if (d->real != NULL && !d->is_const &&
        tcs_shim_forward_cusparseDnMatSetValues_real(d->real, d->values) == CUSPARSE_STATUS_SUCCESS) {
        d->real_values = d->values;
        return CUSPARSE_STATUS_SUCCESS;
    }
    cusparseDnMatDescr_t real = NULL;
    cusparseStatus_t s =
        d->is_const ? tcs_shim_forward_cusparseCreateConstDnMat((cusparseConstDnMatDescr_t*)&real,
                                                                d->rows, d->cols, d->ld, d->values,
                                                                d->value_type, d->order)
                    : tcs_shim_forward_cusparseCreateDnMat(&real, d->rows, d->cols, d->ld,
                                                           d->values, d->value_type, d->order);
    if (s == CUSPARSE_STATUS_SUCCESS && d->batch_count > 0)
        s = tcs_shim_forward_cusparseDnMatSetStridedBatch_real(real, d->batch_count,
                                                               d->batch_stride);
    if (s != CUSPARSE_STATUS_SUCCESS) {
        if (real != NULL) tcs_shim_forward_cusparseDestroyDnMat_real(real);
        return s;
    }
    if (d->real != NULL) tcs_shim_forward_cusparseDestroyDnMat_real(d->real);
    d->real = real;
    d->real_values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

void* tcs_shim_real_dnmat(const void* p, cusparseStatus_t* status) {
    if (p == NULL) return NULL;
    tcs_shim_dnmat* d = tcs_shim_dnmat_of(p);
    if (d == NULL) {
        fail_with(status, CUSPARSE_STATUS_NOT_INITIALIZED);
        return NULL;
    }
    const int ready = d->tcs == NULL || (d->real != NULL && d->real_values == d->values);
    return made(d, (void* const*)&d->real, ready, make_real_dnmat, status);
}

static cusparseStatus_t make_tcs_dnmat(void* object) {
    tcs_shim_dnmat* d = object;
    if (d->tcs_values == d->values) return CUSPARSE_STATUS_SUCCESS;
    const tcsStatus_t s = tcsDnMatSetValues(d->tcs, d->values);
    if (s == TCS_STATUS_SUCCESS) d->tcs_values = d->values;
    return TCS_SHIM_STATUS(s);
}

tcsDnMatDescr_t tcs_shim_tcs_dnmat(const void* p, int* accelerable) {
    if (p == NULL) return NULL;
    tcs_shim_dnmat* d = tcs_shim_dnmat_of(p);
    if (d == NULL) return (tcsDnMatDescr_t)(uintptr_t)p;
    if (d->tcs == NULL || d->batch_count > 1) {
        *accelerable = 0;
        return NULL;
    }
    if (in_step(d, d->tcs_values == d->values, make_tcs_dnmat) != CUSPARSE_STATUS_SUCCESS) {
        *accelerable = 0;
        return NULL;
    }
    return d->tcs;
}

cusparseStatus_t tcs_shim_wrap_real_dnmat(cusparseDnMatDescr_t real, int is_const, void* out) {
    tcs_shim_dnmat* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcs_shim_forward_cusparseDestroyDnMat_real(real);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->is_const = is_const;
    d->real = real;
    const cusparseStatus_t s = tcs_shim_publish(d, TCS_SHIM_DNMAT_KIND, out);
    if (s != CUSPARSE_STATUS_SUCCESS) tcs_shim_forward_cusparseDestroyDnMat_real(real);
    return s;
}

static cusparseStatus_t make_real_dnvec(void* object) {
    tcs_shim_dnvec* d = object;
    if (d->tcs == NULL || (d->real != NULL && d->real_values == d->values))
        return CUSPARSE_STATUS_SUCCESS;
    if (d->real != NULL && !d->is_const &&
        tcs_shim_forward_cusparseDnVecSetValues_real(d->real, d->values) == CUSPARSE_STATUS_SUCCESS) {
        d->real_values = d->values;
        return CUSPARSE_STATUS_SUCCESS;
    }
    cusparseDnVecDescr_t real = NULL;
    const cusparseStatus_t s =
        d->is_const ? tcs_shim_forward_cusparseCreateConstDnVec((cusparseConstDnVecDescr_t*)&real,
                                                                d->size, d->values, d->value_type)
                    : tcs_shim_forward_cusparseCreateDnVec(&real, d->size, d->values, d->value_type);
    if (s != CUSPARSE_STATUS_SUCCESS) return s;
    if (d->real != NULL) tcs_shim_forward_cusparseDestroyDnVec_real(d->real);
    d->real = real;
    d->real_values = d->values;
    return CUSPARSE_STATUS_SUCCESS;
}

void* tcs_shim_real_dnvec(const void* p, cusparseStatus_t* status) {
    if (p == NULL) return NULL;
    tcs_shim_dnvec* d = tcs_shim_dnvec_of(p);
    if (d == NULL) {
        fail_with(status, CUSPARSE_STATUS_NOT_INITIALIZED);
        return NULL;
    }
    const int ready = d->tcs == NULL || (d->real != NULL && d->real_values == d->values);
    return made(d, (void* const*)&d->real, ready, make_real_dnvec, status);
}

static cusparseStatus_t make_tcs_dnvec(void* object) {
    tcs_shim_dnvec* d = object;
    if (d->tcs_values == d->values) return CUSPARSE_STATUS_SUCCESS;
    const tcsStatus_t s = tcsDnVecSetValues(d->tcs, d->values);
    if (s == TCS_STATUS_SUCCESS) d->tcs_values = d->values;
    return TCS_SHIM_STATUS(s);
}

tcsDnVecDescr_t tcs_shim_tcs_dnvec(const void* p, int* accelerable) {
    if (p == NULL) return NULL;
    tcs_shim_dnvec* d = tcs_shim_dnvec_of(p);
    if (d == NULL) return (tcsDnVecDescr_t)(uintptr_t)p;
    if (d->tcs == NULL) {
        *accelerable = 0;
        return NULL;
    }
    if (in_step(d, d->tcs_values == d->values, make_tcs_dnvec) != CUSPARSE_STATUS_SUCCESS) {
        *accelerable = 0;
        return NULL;
    }
    return d->tcs;
}

cusparseStatus_t tcs_shim_wrap_real_dnvec(cusparseDnVecDescr_t real, int is_const, void* out) {
    tcs_shim_dnvec* d = calloc(1, sizeof *d);
    if (d == NULL) {
        tcs_shim_forward_cusparseDestroyDnVec_real(real);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    d->is_const = is_const;
    d->real = real;
    const cusparseStatus_t s = tcs_shim_publish(d, TCS_SHIM_DNVEC_KIND, out);
    if (s != CUSPARSE_STATUS_SUCCESS) tcs_shim_forward_cusparseDestroyDnVec_real(real);
    return s;
}

/* ---- SpGEMM descriptors --------------------------------------------------------- */

static cusparseStatus_t make_real_spgemm(void* object) {
    tcs_shim_spgemm* d = object;
    if (d->real != NULL) return CUSPARSE_STATUS_SUCCESS;
    cusparseSpGEMMDescr_t real = NULL;
    const cusparseStatus_t s = tcs_shim_forward_cusparseSpGEMM_createDescr(&real);
    if (s == CUSPARSE_STATUS_SUCCESS) __atomic_store_n(&d->real, real, __ATOMIC_RELEASE);
    return s;
}

void* tcs_shim_real_spgemm(const void* p, cusparseStatus_t* status) {
    if (p == NULL) return NULL;
    tcs_shim_spgemm* d = tcs_shim_spgemm_of(p);
    if (d == NULL) {
        fail_with(status, CUSPARSE_STATUS_NOT_INITIALIZED);
        return NULL;
    }
    const int ready = __atomic_load_n(&d->real, __ATOMIC_ACQUIRE) != NULL;
    return made(d, (void* const*)&d->real, ready, make_real_spgemm, status);
}
