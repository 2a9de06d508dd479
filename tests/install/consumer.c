/* A program outside the tcsparse tree, built against an installed tcsparse through
 * find_package(tcsparse) (cmake_consumer/) or pkg-config (pkgconfig_consumer/): the
 * header compiles with the flags the package gives, the library links and loads, the
 * loaded library is the one the header describes, and it lies under the install prefix.
 * Usage: consumer [prefix]. Prints "tcsCreate: <status name>"; exit status 0 when the
 * status is SUCCESS or, without a GPU, NOT_INITIALIZED. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tcsparse.h>

int main(int argc, char** argv) {
    int version = 0;
    if (tcsGetVersion(NULL, &version) != TCS_STATUS_SUCCESS || version != TCS_VERSION) {
        fprintf(stderr, "the library reports version %d, the header %d\n", version, TCS_VERSION);
        return 1;
    }
    printf("version: %d\n", version);

    Dl_info info;
    if (dladdr((void*)tcsCreate, &info) == 0 || info.dli_fname == NULL) {
        fprintf(stderr, "dladdr found no library for tcsCreate\n");
        return 1;
    }
    printf("library: %s\n", info.dli_fname);
    if (argc > 1 && strncmp(info.dli_fname, argv[1], strlen(argv[1])) != 0) {
        fprintf(stderr, "the library was loaded from outside the prefix %s\n", argv[1]);
        return 1;
    }

    tcsHandle_t handle = NULL;
    tcsStatus_t status = tcsCreate(&handle);
    printf("tcsCreate: %s\n", tcsGetErrorName(status));
    if (status == TCS_STATUS_SUCCESS) return tcsDestroy(handle) == TCS_STATUS_SUCCESS ? 0 : 1;
    return status == TCS_STATUS_NOT_INITIALIZED && handle == NULL ? 0 : 1;
}
