/*
 * cmocka assertions on tcsparse statuses, for the tests (bench/ does not use cmocka).
 * Include after <cmocka.h> and "tcsparse.h". A failure names the call and both
 * statuses, e.g. "tcsCsrSetPointers(d, NULL, CI, VAL) returned TCS_STATUS_SUCCESS,
 * expected TCS_STATUS_INVALID_VALUE". CUDA_OK(call) fails the test where a CUDA runtime
 * call does not return cudaSuccess, naming the call and the error (where it is used,
 * <cuda_runtime_api.h> must be included).
 */
#ifndef TCST_STATUS_H_
#define TCST_STATUS_H_

#define assert_status(call, expected)                                                    \
    do {                                                                                 \
        const tcsStatus_t got_ = (call);                                                 \
        if (got_ != (expected))                                                          \
            fail_msg("%s returned %s, expected %s", #call, tcsGetErrorName(got_),        \
                     tcsGetErrorName(expected));                                         \
    } while (0)
#define assert_ok(call) assert_status(call, TCS_STATUS_SUCCESS)
#define CUDA_OK(call)                                                                        \
    do {                                                                                     \
        const cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e_));            \
    } while (0)

#endif /* TCST_STATUS_H_ */
