/* Compiled as strict C99 with -Wall -Wextra -pedantic -Werror (tests/header.cmake):
 * the public header is self-contained (included first), guarded against a second
 * inclusion, and usable from C. */
#include "tcsparse.h"
#include "tcsparse.h"

#include <stdio.h>

int main(void) {
    tcsHandle_t handle = NULL;
    tcsSpMatDescr_t sparse = NULL;
    tcsConstSpMatDescr_t const_sparse = sparse; /* mutable converts to const implicitly */
    tcsDnMatDescr_t dense = NULL;
    tcsConstDnMatDescr_t const_dense = dense;
    tcsSpGEMMDescr_t spgemm = NULL;
    tcsSpGEMMAlg_t alg = TCS_SPGEMM_CSR_ALG_DETERMINITIC; /* cuSPARSE's spelling works */
    int version = 0, major = -1;
    (void)handle, (void)const_sparse, (void)const_dense, (void)spgemm, (void)alg;

    printf("TCS_VERSION %d\n", TCS_VERSION);
    if (tcsGetVersion(handle, &version) != TCS_STATUS_SUCCESS || version != TCS_VERSION ||
        tcsGetProperty(MAJOR_VERSION, &major) != TCS_STATUS_SUCCESS ||
        major != TCS_VERSION_MAJOR) {
        printf("the library reports version %d (major %d), the header %d\n", version, major,
               TCS_VERSION);
        return 1;
    }
    return 0;
}
