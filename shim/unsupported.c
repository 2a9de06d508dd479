/* What every NOT_SUPPORTED function of the shim returns (the functions themselves are
 * generated from the real <cusparse.h> by gen_unsupported.py). */
#include "shim.h"

#include <stdio.h>
#include <stdlib.h>

cusparseStatus_t tcs_shim_unsupported(const char* function) {
    /* Read at each call: these calls are rare, and a solver that fails on one wants
     * the line that names it (TCS_LOG_LEVEL=1, as tcsparse's own error lines). */
    const char* level = getenv("TCS_LOG_LEVEL");
    if (level != NULL && atoi(level) >= 1)
        fprintf(stderr, "tcsparse: %s: not implemented by tcsparse -> %s\n", function,
                tcsGetErrorName(TCS_STATUS_NOT_SUPPORTED));
    return CUSPARSE_STATUS_NOT_SUPPORTED;
}
