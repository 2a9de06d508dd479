/* The real cuSPARSE behind the shim: found and loaded on the first call that needs it.
 *
 * Where it is looked for, in order:
 *   1. $TCS_CUSPARSE_LIBRARY, a path (or a name for dlopen): only there, when set;
 *   2. the SONAME this shim was built against (libcusparse.so.12), as the dynamic
 *      loader finds it: under LD_PRELOAD that is the library the program itself loaded;
 *   3. an object of that name the process has loaded already (a framework's bundled
 *      copy, dl_iterate_phdr);
 *   4. that file name in each directory of LD_LIBRARY_PATH, the toolkit's library
 *      directory found at configure time, and the usual system directories.
 * Any candidate that turns out to be a tcsparse shim is skipped: this one, when it is
 * installed under the real SONAME in a directory placed first on the library path (the
 * way to reach programs that dlopen cuSPARSE themselves; docs/migration.md), or
 * another copy. A shim is recognised by its answer, not its path: its
 * cusparseGetErrorName names statuses "TCS_STATUS_...".
 */
#define _GNU_SOURCE
#include "shim.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TCS_SHIM_STR2(x) #x
#define TCS_SHIM_STR(x) TCS_SHIM_STR2(x)
#define TCS_SHIM_SONAME "libcusparse.so." TCS_SHIM_STR(CUSPARSE_VER_MAJOR)

#ifndef TCS_SHIM_TOOLKIT_LIBDIR
#define TCS_SHIM_TOOLKIT_LIBDIR "/usr/local/cuda/lib64"
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void* library;
static char failure[1024];

int tcs_shim_log_level(void) {
    static int level = -1;
    int l = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (l < 0) {
        const char* s = getenv("TCS_LOG_LEVEL");
        l = s != NULL ? atoi(s) : 0;
        __atomic_store_n(&level, l, __ATOMIC_RELAXED);
    }
    return l;
}

void tcs_shim_trace_forward(const char* function) {
    if (tcs_shim_log_level() >= 2) fprintf(stderr, "tcsparse: %s -> cuSPARSE\n", function);
}

cusparseStatus_t tcs_shim_reject(const char* function, const char* argument, const char* why) {
    if (tcs_shim_log_level() >= 1)
        fprintf(stderr, "tcsparse: %s: argument %s %s -> %s\n", function, argument, why,
                tcsGetErrorName(TCS_STATUS_INVALID_VALUE));
    return CUSPARSE_STATUS_INVALID_VALUE;
}

/* A tcsparse shim answers cusparseGetErrorName with tcsparse's names. */
static int is_tcsparse_shim(void* handle) {
    const char* (*name_of)(cusparseStatus_t) =
        (const char* (*)(cusparseStatus_t))dlsym(handle, "cusparseGetErrorName");
    if (name_of == NULL) return 1; /* not a cuSPARSE either */
    const char* name = name_of(CUSPARSE_STATUS_SUCCESS);
    return name != NULL && strncmp(name, "TCS_", 4) == 0;
}

static void note(const char* what, const char* detail) {
    const size_t used = strlen(failure);
    if (used + 8 < sizeof failure)
        snprintf(failure + used, sizeof failure - used, "%s%s: %s", used ? "; " : "", what,
                 detail != NULL ? detail : "?");
}

static void* try_open(const char* path) {
    void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        note(path, dlerror());
        return NULL;
    }
    if (is_tcsparse_shim(h)) {
        note(path, "a tcsparse shim, skipped");
        dlclose(h);
        return NULL;
    }
    return h;
}

/* The file of this shim, to skip it without opening it again. */
static int same_file_as_shim(const char* path) {
    Dl_info self;
    struct stat a, b;
    if (dladdr((void*)&tcs_shim_real_library, &self) == 0 || self.dli_fname == NULL) return 0;
    if (stat(path, &a) != 0 || stat(self.dli_fname, &b) != 0) return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int ends_in_soname(const char* path) {
    const char* slash = strrchr(path, '/');
    return strcmp(slash != NULL ? slash + 1 : path, TCS_SHIM_SONAME) == 0;
}

/* dl_iterate_phdr holds the loader's list lock: remember the path, open it after. */
static int find_loaded(struct dl_phdr_info* info, size_t size, void* found) {
    (void)size;
    if (info->dlpi_name == NULL || !ends_in_soname(info->dlpi_name)) return 0;
    if (same_file_as_shim(info->dlpi_name)) return 0;
    snprintf((char*)found, 4096, "%s", info->dlpi_name);
    return 1;
}

static void* open_loaded(void) {
    static char path[4096];
    path[0] = '\0';
    dl_iterate_phdr(find_loaded, path);
    return path[0] != '\0' ? try_open(path) : NULL;
}

static void* open_in(const char* dir, size_t length) {
    char path[4096];
    if (length == 0 || length + sizeof TCS_SHIM_SONAME + 1 > sizeof path) return NULL;
    memcpy(path, dir, length);
    path[length] = '/';
    memcpy(path + length + 1, TCS_SHIM_SONAME, sizeof TCS_SHIM_SONAME);
    struct stat st;
    if (stat(path, &st) != 0 || same_file_as_shim(path)) return NULL;
    return try_open(path);
}

static void* open_in_list(const char* list) {
    if (list == NULL) return NULL;
    for (const char* p = list; *p != '\0';) {
        const char* end = strchr(p, ':');
        const size_t length = end != NULL ? (size_t)(end - p) : strlen(p);
        void* h = open_in(p, length);
        if (h != NULL) return h;
        if (end == NULL) break;
        p = end + 1;
    }
    return NULL;
}

static void load(void) {
    const char* chosen = getenv("TCS_CUSPARSE_LIBRARY");
    if (chosen != NULL && *chosen != '\0') {
        library = try_open(chosen);
    } else {
        library = try_open(TCS_SHIM_SONAME);
        if (library == NULL) library = open_loaded();
        if (library == NULL) library = open_in_list(getenv("LD_LIBRARY_PATH"));
        if (library == NULL)
            library = open_in_list(TCS_SHIM_TOOLKIT_LIBDIR
                                   ":/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu:/usr/lib64:/usr/lib");
    }
    if (library == NULL && tcs_shim_log_level() >= 1)
        fprintf(stderr,
                "tcsparse: the real cuSPARSE (%s) was not found (%s); the functions tcsparse "
                "does not implement return NOT_SUPPORTED. Set TCS_CUSPARSE_LIBRARY to its path.\n",
                TCS_SHIM_SONAME, failure);
}

void* tcs_shim_real_library(void) {
    pthread_once(&load_once, load);
    return library;
}

int tcs_shim_real_available(void) { return tcs_shim_real_library() != NULL; }

void* tcs_shim_real_symbol(const char* name) {
    void* lib = tcs_shim_real_library();
    return lib != NULL ? dlsym(lib, name) : NULL;
}

cusparseStatus_t tcs_shim_absent(const char* function) {
    if (tcs_shim_log_level() >= 1)
        fprintf(stderr, "tcsparse: %s: not implemented by tcsparse and the real cuSPARSE is %s -> %s\n",
                function, tcs_shim_real_library() != NULL ? "without it" : "absent",
                tcsGetErrorName(TCS_STATUS_NOT_SUPPORTED));
    return CUSPARSE_STATUS_NOT_SUPPORTED;
}
