/*
 * Internal header of libtcsparse_cusparse.so, the binary swap-in of tcsparse for
 * cuSPARSE. The shim is compiled against the REAL <cusparse.h>, so the compiler checks
 * every exported function against cuSPARSE's own declaration, and forwards to the tcs
 * function of the same name. Every enum value of the mapped families is numerically
 * the cuSPARSE one (tests/api_cusparse_enums.c), so enum arguments are plain casts.
 *
 * Opaque objects: a cusparseHandle_t or descriptor handed out by the shim IS a tcs
 * object behind a cast. The shim exports the whole handle and descriptor family, so no
 * object of the real cuSPARSE can reach tcsparse and no tcs object the real library.
 *
 * Out-parameters of a different C type (an enum, a descriptor pointer) are written
 * through a local of the tcs type and copied on success: the tcs function sees NULL
 * exactly when the caller passed NULL, so its argument checks still answer.
 */
#ifndef TCSPARSE_SHIM_H_
#define TCSPARSE_SHIM_H_

#include <cusparse.h>

#include "tcsparse.h"

/* The status of a forwarded call; the values are the same. */
#define TCS_SHIM_STATUS(call) ((cusparseStatus_t)(call))

/* A local for an out-parameter `p`: the address of `local`, or NULL when p is NULL. */
#define TCS_SHIM_OUT(p, local) ((p) != NULL ? &(local) : NULL)

/* The answer of every cuSPARSE function tcsparse does not implement (unsupported.c). */
cusparseStatus_t tcs_shim_unsupported(const char* function);

#endif /* TCSPARSE_SHIM_H_ */
