"""The C API of libtcsparse through ctypes: every tcs* function, its enums, and the
library's loading. The package's products (tcsparse.spgemm, spmm, spmv) sit on it; it
needs no numpy and no GPU, and can be used on its own for calls the products do not
make (descriptors, tcsCheckMatrixCsr, the SpGEMM reuse protocol).

Loading (first that works):
  1. the file named by the environment variable TCSPARSE_LIBRARY;
  2. the copy installed with the package (tcsparse/lib/libtcsparse.so.<major>);
  3. the SONAME libtcsparse.so.<major>, which the dynamic loader looks up in
     LD_LIBRARY_PATH, the loader cache and the default folders;
  4. what ctypes.util.find_library("tcsparse") names.
The major version of the loaded library must equal EXPECTED_MAJOR: within a major
version every function keeps its signature (docs/ABI.md).

Every tcs* function of the C API is an attribute of Library with its argtypes
declared; a status other than TCS_STATUS_SUCCESS raises TcsError, which carries the
lines the library logged during that call (TCS_LOG_LEVEL, see Library). Enum values
are module constants with their C names (TCS_INDEX_32I, CUDA_R_64F, ...).

    from tcsparse import _capi
    lib = _capi.load()
    handle = ctypes.c_void_p()
    lib.tcsCreate(ctypes.byref(handle))
"""
import contextlib
import ctypes
import ctypes.util
import enum
import os
import sys
import threading

EXPECTED_MAJOR = 0
SONAME = "libtcsparse.so.%d" % EXPECTED_MAJOR


class Status(enum.IntEnum):
    """tcsStatus_t"""
    TCS_STATUS_SUCCESS = 0
    TCS_STATUS_NOT_INITIALIZED = 1
    TCS_STATUS_ALLOC_FAILED = 2
    TCS_STATUS_INVALID_VALUE = 3
    TCS_STATUS_ARCH_MISMATCH = 4
    TCS_STATUS_MAPPING_ERROR = 5
    TCS_STATUS_EXECUTION_FAILED = 6
    TCS_STATUS_INTERNAL_ERROR = 7
    TCS_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8
    TCS_STATUS_ZERO_PIVOT = 9
    TCS_STATUS_NOT_SUPPORTED = 10
    TCS_STATUS_INSUFFICIENT_RESOURCES = 11


class PointerMode(enum.IntEnum):
    """tcsPointerMode_t"""
    TCS_POINTER_MODE_HOST = 0
    TCS_POINTER_MODE_DEVICE = 1


class Operation(enum.IntEnum):
    """tcsOperation_t"""
    TCS_OPERATION_NON_TRANSPOSE = 0
    TCS_OPERATION_TRANSPOSE = 1
    TCS_OPERATION_CONJUGATE_TRANSPOSE = 2


class IndexBase(enum.IntEnum):
    """tcsIndexBase_t"""
    TCS_INDEX_BASE_ZERO = 0
    TCS_INDEX_BASE_ONE = 1


class IndexType(enum.IntEnum):
    """tcsIndexType_t"""
    TCS_INDEX_16U = 1
    TCS_INDEX_32I = 2
    TCS_INDEX_64I = 3


class Order(enum.IntEnum):
    """tcsOrder_t"""
    TCS_ORDER_COL = 1
    TCS_ORDER_ROW = 2


class Format(enum.IntEnum):
    """tcsFormat_t"""
    TCS_FORMAT_CSR = 1
    TCS_FORMAT_COO = 3
    TCS_FORMAT_BSR = 6


class Math(enum.IntEnum):
    """tcsMath_t"""
    TCS_DEFAULT_MATH = 0
    TCS_PEDANTIC_MATH = 2
    TCS_TF32_TENSOR_OP_MATH = 3
    TCS_FP16_TENSOR_OP_MATH = 64
    DEFAULT = 0
    PEDANTIC = 2
    TF32_TENSOR_OP = 3
    FP16_TENSOR_OP = 64


class SpGEMMAlg(enum.IntEnum):
    """tcsSpGEMMAlg_t"""
    TCS_SPGEMM_DEFAULT = 0
    TCS_SPGEMM_CSR_ALG_DETERMINISTIC = 1
    TCS_SPGEMM_CSR_ALG_NONDETERMINISTIC = 2
    TCS_SPGEMM_ALG1 = 3
    TCS_SPGEMM_ALG2 = 4
    TCS_SPGEMM_ALG3 = 5
    TCS_SPGEMM_ALG_HASH = 100
    TCS_SPGEMM_ALG_TILE = 101
    TCS_SPGEMM_ALG_TILE_TC = 102
    # the cuSPARSE spellings (aliases, as the #defines of the C header)
    TCS_SPGEMM_CSR_ALG_DETERMINITIC = 1
    TCS_SPGEMM_CSR_ALG_NONDETERMINITIC = 2
    # short names for Python callers
    DEFAULT = 0
    HASH = 100
    TILE = 101
    TILE_TC = 102


class SpMMAlg(enum.IntEnum):
    """tcsSpMMAlg_t"""
    TCS_SPMM_ALG_DEFAULT = 0
    TCS_SPMM_COO_ALG1 = 1
    TCS_SPMM_COO_ALG2 = 2
    TCS_SPMM_COO_ALG3 = 3
    TCS_SPMM_CSR_ALG1 = 4
    TCS_SPMM_COO_ALG4 = 5
    TCS_SPMM_CSR_ALG2 = 6
    TCS_SPMM_CSR_ALG3 = 12
    TCS_SPMM_BLOCKED_ELL_ALG1 = 13
    TCS_SPMM_BSR_ALG1 = 14
    TCS_SPMM_CSR_ROWSPLIT = 100
    TCS_SPMM_CSR_MERGE = 101
    TCS_SPMM_BSR_TC = 102
    # short names for Python callers
    DEFAULT = 0
    CSR_ALG1 = 4
    CSR_ALG2 = 6
    CSR_ALG3 = 12
    CSR_ROWSPLIT = 100
    CSR_MERGE = 101
    BSR_TC = 102


class DataStatus(enum.IntEnum):
    """tcsDataStatus_t"""
    TCS_DATA_STATUS_SUCCESS = 0
    TCS_DATA_STATUS_INVALID_OFFSETS = 1
    TCS_DATA_STATUS_OFFSETS_DECREASE = 2
    TCS_DATA_STATUS_INVALID_INDEX = 3
    TCS_DATA_STATUS_DUPLICATE = 4
    TCS_DATA_STATUS_UNSORTED = 5
    TCS_DATA_STATUS_NAN = 6
    TCS_DATA_STATUS_INF = 7


class MatrixCheck(enum.IntEnum):
    """tcsMatrixCheck_t"""
    TCS_CHECK_STRUCTURE = 0
    TCS_CHECK_UNIQUE = 1
    TCS_CHECK_SORTED = 2


class SpMVAlg(enum.IntEnum):
    """tcsSpMVAlg_t"""
    TCS_SPMV_ALG_DEFAULT = 0
    TCS_SPMV_COO_ALG1 = 1
    TCS_SPMV_CSR_ALG1 = 2
    TCS_SPMV_CSR_ALG2 = 3
    TCS_SPMV_COO_ALG2 = 4
    TCS_SPMV_SELL_ALG1 = 5
    TCS_SPMV_BSR_ALG1 = 6
    # short names for Python callers
    DEFAULT = 0
    CSR_ALG1 = 2
    CSR_ALG2 = 3


class DataType(enum.IntEnum):
    """cudaDataType (library_types.h): the value types tcsparse knows"""
    CUDA_R_32F = 0
    CUDA_R_64F = 1
    CUDA_R_16F = 2
    CUDA_R_16BF = 14


class LibraryProperty(enum.IntEnum):
    """libraryPropertyType (library_types.h), for tcsGetProperty"""
    MAJOR_VERSION = 0
    MINOR_VERSION = 1
    PATCH_LEVEL = 2


ENUMS = (Status, PointerMode, Operation, IndexBase, IndexType, Order, Format, Math,
         SpGEMMAlg, SpMMAlg, SpMVAlg, DataStatus, MatrixCheck, DataType, LibraryProperty)
for _enum in ENUMS:
    globals().update((name, member) for name, member in _enum.__members__.items()
                     if name.startswith(("TCS_", "CUDA_")) or _enum is LibraryProperty)

# Argument codes of the prototypes below, one character per C argument.
_ARGUMENT_TYPES = {
    "h": ctypes.c_void_p,                   # a handle, descriptor or stream, by value
    "O": ctypes.POINTER(ctypes.c_void_p),   # where a handle, descriptor or pointer is written
    "p": ctypes.c_void_p,                   # a device array, buffer or scalar address
    "i": ctypes.c_int64,                    # int64_t
    "I": ctypes.POINTER(ctypes.c_int64),    # int64_t*
    "e": ctypes.c_int,                      # an enum (32-bit, as C compilers store them)
    "E": ctypes.POINTER(ctypes.c_int),      # an enum* or int*
    "z": ctypes.POINTER(ctypes.c_size_t),   # size_t*
    "f": ctypes.c_float,                    # float
}

# Every function of tcsparse.h, in its order, with its argument codes. All return
# tcsStatus_t except the two error-string functions.
PROTOTYPES = {
    "tcsGetErrorName": "e",
    "tcsGetErrorString": "e",
    "tcsGetVersion": "hE",
    "tcsGetProperty": "eE",
    "tcsCreate": "O",
    "tcsDestroy": "h",
    "tcsSetStream": "hh",
    "tcsGetStream": "hO",
    "tcsSetPointerMode": "he",
    "tcsGetPointerMode": "hE",
    "tcsSetMathMode": "he",
    "tcsGetMathMode": "hE",
    "tcsCreateCsr": "Oiiipppeeee",
    "tcsCreateConstCsr": "Oiiipppeeee",
    "tcsCreateCoo": "Oiiipppeee",
    "tcsCreateBsr": "Oiiiiipppeeeee",
    "tcsDestroySpMat": "h",
    "tcsSpMatGetSize": "hIII",
    "tcsSpMatGetFormat": "hE",
    "tcsSpMatGetIndexBase": "hE",
    "tcsSpMatGetValues": "hO",
    "tcsSpMatSetValues": "hp",
    "tcsCsrGet": "hIIIOOOEEEE",
    "tcsCsrSetPointers": "hppp",
    "tcsCreateDnMat": "Oiiipee",
    "tcsCreateConstDnMat": "Oiiipee",
    "tcsDestroyDnMat": "h",
    "tcsDnMatGet": "hIIIOEE",
    "tcsDnMatGetValues": "hO",
    "tcsDnMatSetValues": "hp",
    "tcsCheckMatrixCsr_bufferSize": "hhez",
    "tcsCheckMatrixCsr": "hheEp",
    "tcsCreateDnVec": "Oipe",
    "tcsCreateConstDnVec": "Oipe",
    "tcsDestroyDnVec": "h",
    "tcsDnVecGet": "hIOE",
    "tcsConstDnVecGet": "hIOE",
    "tcsDnVecGetValues": "hO",
    "tcsConstDnVecGetValues": "hO",
    "tcsDnVecSetValues": "hp",
    "tcsSpGEMM_createDescr": "O",
    "tcsSpGEMM_destroyDescr": "h",
    "tcsSpGEMM_workEstimation": "heephhpheehzp",
    "tcsSpGEMM_getNumProducts": "hI",
    "tcsSpGEMM_estimateMemory": "heephhpheehfzpz",
    "tcsSpGEMM_compute": "heephhpheehzp",
    "tcsSpGEMM_copy": "heephhpheeh",
    "tcsSpGEMMreuse_workEstimation": "heehhhehzp",
    "tcsSpGEMMreuse_nnz": "heehhhehzpzpzp",
    "tcsSpGEMMreuse_copy": "heehhhehzp",
    "tcsSpGEMMreuse_compute": "heephhpheeh",
    "tcsSpMM_bufferSize": "heephhpheez",
    "tcsSpMM_preprocess": "heephhpheep",
    "tcsSpMM": "heephhpheep",
    "tcsSpMV_bufferSize": "hephhpheez",
    "tcsSpMV_preprocess": "hephhpheep",
    "tcsSpMV": "hephhpheep",
    "tcsSpMM_getBlockCounts": "hIIIIIE",
}
_STRING_FUNCTIONS = ("tcsGetErrorName", "tcsGetErrorString")


class TcsError(RuntimeError):
    """A tcs* call returned a status other than TCS_STATUS_SUCCESS.

    function, status (a Status), name and text (the library's name and sentence for
    the status), and log: the lines the library wrote to stderr during the call (at
    TCS_LOG_LEVEL >= 1 the failing argument and the rule it broke), without their
    "tcsparse: " prefix."""

    def __init__(self, function, status, name, text, log=()):
        self.function = function
        self.status = Status(status) if status in Status._value2member_map_ else status
        self.name = name
        self.text = text
        self.log = list(log)
        message = "%s: %s (%s)" % (function, name, text)
        if self.log:
            message += ": " + "; ".join(self.log)
        super().__init__(message)


class NoGpuError(TcsError):
    """tcsCreate found no usable GPU or driver (TCS_STATUS_NOT_INITIALIZED)."""


class VersionMismatchError(ImportError):
    """The library found has another major version than this module was written for."""


PACKAGE_LIBRARY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib")


def _candidates(path):
    if path:
        return [path]
    if os.environ.get("TCSPARSE_LIBRARY"):
        return [os.environ["TCSPARSE_LIBRARY"]]
    names = [SONAME]
    packaged = os.path.join(PACKAGE_LIBRARY_DIR, SONAME)
    if os.path.exists(packaged):
        names.insert(0, packaged)
    found = ctypes.util.find_library("tcsparse")
    if found and found not in names:
        names.append(found)
    return names


_LOG_PREFIX = "tcsparse: "


class _StderrCapture:
    """Takes what is written to file descriptor 2 during a library call, so that an
    error can carry the library's log line (the library prints it with fprintf to
    stderr and keeps no last-error record). Text that is not the library's log, and
    the log itself when the user asked for it (TCS_LOG_LEVEL set before the library
    was loaded), goes on to the real stderr afterwards. One call at a time per process:
    descriptor 2 is the process's, so calls through a Library are serialized."""

    def __init__(self, echo_log):
        self._echo_log = echo_log
        self._lock = threading.Lock()
        self._file = None

    def call(self, function, arguments):
        with self._lock:
            if self._file is None:
                import tempfile
                self._file = tempfile.TemporaryFile()
            sys.stderr.flush()
            fd = self._file.fileno()
            saved = os.dup(2)
            os.dup2(fd, 2)
            try:
                status = function(*arguments)
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            text = b""
            size = os.lseek(fd, 0, os.SEEK_END)
            if size:
                text = os.pread(fd, size, 0)
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
        lines = text.decode(errors="replace").splitlines()
        log = [line[len(_LOG_PREFIX):] for line in lines if line.startswith(_LOG_PREFIX)]
        passed_on = [line for line in lines if self._echo_log or not line.startswith(_LOG_PREFIX)]
        if passed_on:
            os.write(2, ("\n".join(passed_on) + "\n").encode())
        return status, log


class Library:
    """libtcsparse loaded with ctypes; each tcs* function is an attribute.

    The library reads TCS_LOG_LEVEL once, at its first call. When the variable is not
    set, the first call here runs with it at 1 (errors only) and the variable is
    removed again, so that a TcsError can name the bad argument; what the library logs
    then is kept in the exception and not printed. When it is set, the log is printed
    as the user asked (and still kept in the exception)."""

    def __init__(self, path=None):
        errors = []
        for candidate in _candidates(path):
            try:
                self._dll = ctypes.CDLL(candidate)
                self.path = candidate
                break
            except OSError as error:
                errors.append("%s: %s" % (candidate, error))
        else:
            raise OSError("tcsparse not found (set TCSPARSE_LIBRARY to its path, or put its "
                          "folder on LD_LIBRARY_PATH): " + "; ".join(errors))
        user_level = os.environ.get("TCS_LOG_LEVEL")
        self._capture = _StderrCapture(echo_log=user_level is not None)
        for name, codes in PROTOTYPES.items():
            function = getattr(self._dll, name)
            function.argtypes = [_ARGUMENT_TYPES[c] for c in codes]
            if name in _STRING_FUNCTIONS:
                function.restype = ctypes.c_char_p
                setattr(self, name, function)
            else:
                function.restype = ctypes.c_int
                setattr(self, name, self._checked(name, function))
        if user_level is None:
            os.environ["TCS_LOG_LEVEL"] = "1"
        try:
            self.version = self.get_version()
        finally:
            if user_level is None:
                del os.environ["TCS_LOG_LEVEL"]
        check_version(self.version)

    def _checked(self, name, function):
        def call(*arguments):
            status, log = self._capture.call(function, arguments)
            if status != TCS_STATUS_SUCCESS:
                kind = NoGpuError if (name == "tcsCreate" and
                                      status == TCS_STATUS_NOT_INITIALIZED) else TcsError
                raise kind(name, status, self.error_name(status), self.error_string(status), log)
            return status
        call.__name__ = name
        return call

    def error_name(self, status):
        """The enumerator name of a status, e.g. 'TCS_STATUS_INVALID_VALUE'."""
        return self.tcsGetErrorName(int(status)).decode()

    def error_string(self, status):
        """A one-sentence description of a status."""
        return self.tcsGetErrorString(int(status)).decode()

    def get_version(self):
        """TCS_VERSION of the loaded library: MAJOR*10000 + MINOR*100 + PATCH."""
        version = ctypes.c_int()
        self.tcsGetVersion(None, ctypes.byref(version))
        return version.value

    @contextlib.contextmanager
    def handle(self):
        """A tcsHandle_t for the duration of a with block (NoGpuError without a GPU)."""
        handle = ctypes.c_void_p()
        self.tcsCreate(ctypes.byref(handle))
        try:
            yield handle
        finally:
            self.tcsDestroy(handle)


def check_version(version):
    """Raises VersionMismatchError unless `version` (as tcsGetVersion writes it) has
    the major version this module was written for."""
    major = version // 10000
    if major != EXPECTED_MAJOR:
        raise VersionMismatchError(
            "tcsparse %d.%d.%d was loaded, this module needs major version %d"
            % (major, version // 100 % 100, version % 100, EXPECTED_MAJOR))


_library = None


def load(path=None):
    """The library, loaded once per process (path: see the module documentation)."""
    global _library
    if path is not None:
        return Library(path)
    if _library is None:
        _library = Library()
    return _library


# ---------------------------------------------------------------------------------
# The CUDA runtime, for device memory in the helpers below.
# ---------------------------------------------------------------------------------

class CudaError(RuntimeError):
    """A CUDA runtime call failed."""


class CudaRuntime:
    """The few libcudart calls that moving arrays to and from the GPU needs."""

    NAMES = ("libcudart.so.13", "libcudart.so.12", "libcudart.so")
    _HOST_TO_DEVICE = 1
    _DEVICE_TO_HOST = 2

    @classmethod
    def candidates(cls):
        """The loader's search first, then the toolkit's folder ($CUDA_HOME or
        /usr/local/cuda), where the loader cache may not point."""
        home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
        return list(cls.NAMES) + [os.path.join(home, "lib64", name) for name in cls.NAMES]

    def __init__(self):
        errors = []
        for name in self.candidates():
            try:
                self._dll = ctypes.CDLL(name)
                break
            except OSError as error:
                errors.append(str(error))
        else:
            raise OSError("the CUDA runtime was not found: " + "; ".join(errors))
        d = self._dll
        d.cudaGetDeviceCount.argtypes = [ctypes.POINTER(ctypes.c_int)]
        d.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
        d.cudaFree.argtypes = [ctypes.c_void_p]
        d.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        d.cudaDeviceSynchronize.argtypes = []
        d.cudaGetErrorString.argtypes = [ctypes.c_int]
        d.cudaGetErrorString.restype = ctypes.c_char_p

    def _check(self, error, what):
        if error != 0:
            raise CudaError("%s: %s" % (what, self._dll.cudaGetErrorString(error).decode()))

    def device_count(self):
        """The number of usable GPUs; 0 when there is no device or no driver."""
        count = ctypes.c_int(0)
        if self._dll.cudaGetDeviceCount(ctypes.byref(count)) != 0:
            return 0
        return count.value

    def malloc(self, nbytes):
        """Device memory of at least one byte (so that empty arrays have an address)."""
        pointer = ctypes.c_void_p()
        self._check(self._dll.cudaMalloc(ctypes.byref(pointer), max(int(nbytes), 1)),
                    "cudaMalloc(%d)" % nbytes)
        return pointer.value

    def free(self, pointer):
        self._check(self._dll.cudaFree(pointer), "cudaFree")

    def synchronize(self):
        self._check(self._dll.cudaDeviceSynchronize(), "cudaDeviceSynchronize")

    def upload(self, stack, array):
        """Copies a contiguous numpy array into new device memory freed by `stack`."""
        pointer = self.malloc(array.nbytes)
        stack.callback(self.free, pointer)
        if array.nbytes:
            self._check(self._dll.cudaMemcpy(pointer, array.ctypes.data, array.nbytes,
                                             self._HOST_TO_DEVICE), "cudaMemcpy")
        return pointer

    def allocate(self, stack, nbytes):
        """Device memory of nbytes, freed by `stack`."""
        pointer = self.malloc(nbytes)
        stack.callback(self.free, pointer)
        return pointer

    def download(self, array, pointer):
        """Copies device memory into the contiguous numpy array `array`."""
        if array.nbytes:
            self._check(self._dll.cudaMemcpy(array.ctypes.data, pointer, array.nbytes,
                                             self._DEVICE_TO_HOST), "cudaMemcpy")
        return array


_cuda = None


def cuda_runtime():
    """The CUDA runtime, loaded once per process."""
    global _cuda
    if _cuda is None:
        _cuda = CudaRuntime()
    return _cuda
