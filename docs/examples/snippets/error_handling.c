/*
 * docs/guide.md, "Error handling": what a failing call returns and how to read it.
 * Needs no GPU: descriptor calls run on the host, and tcsCreate says when there is no
 * GPU. Run it with TCS_LOG_LEVEL=1 to see the library name the bad argument.
 */
#include "snippet_util.h"

int main(void) {
    int wrong = 0;

    /* [status] */
    /* A 4 x 4 CSR matrix with 2 entries but no arrays: an invalid argument. */
    tcsSpMatDescr_t mat = NULL;
    const tcsStatus_t status = tcsCreateCsr(&mat, 4, 4, 2, NULL, NULL, NULL, TCS_INDEX_32I,
                                            TCS_INDEX_32I, TCS_INDEX_BASE_ZERO, CUDA_R_32F);
    if (status != TCS_STATUS_SUCCESS)
        printf("tcsCreateCsr failed: %s (%s)\n", tcsGetErrorName(status),
               tcsGetErrorString(status));
    /* [status] */
    wrong |= status != TCS_STATUS_INVALID_VALUE || mat != NULL;

    /* [no_gpu] */
    tcsHandle_t handle = NULL;
    const tcsStatus_t created = tcsCreate(&handle);
    if (created == TCS_STATUS_NOT_INITIALIZED) {
        /* No usable GPU or driver: nothing was allocated and handle is NULL. A program
         * can fall back to a CPU path here. */
        printf("no CUDA GPU: tcsparse cannot run the products here\n");
    } else {
        CHECK_TCS(created);
        CHECK_TCS(tcsDestroy(handle));
    }
    /* [no_gpu] */
    wrong |= created != TCS_STATUS_SUCCESS && !(created == TCS_STATUS_NOT_INITIALIZED &&
                                                handle == NULL);

    /* Every status has a name and a sentence; an unknown value has them too. */
    for (int s = TCS_STATUS_SUCCESS; s <= TCS_STATUS_INSUFFICIENT_RESOURCES; ++s)
        wrong |= strncmp(tcsGetErrorName((tcsStatus_t)s), "TCS_STATUS_", 11) != 0 ||
                 strlen(tcsGetErrorString((tcsStatus_t)s)) == 0;
    wrong |= strcmp(tcsGetErrorName((tcsStatus_t)42), "TCS_STATUS_UNKNOWN") != 0;

    printf("error_handling: %s\n", wrong ? "WRONG" : "every status as documented");
    return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
