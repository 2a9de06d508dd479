"""tcsparse through ctypes: no compiled extension, only libtcsparse.so.<major>.

Loading (first that works):
  1. the file named by the environment variable TCSPARSE_LIBRARY;
  2. the SONAME libtcsparse.so.<major>, which the dynamic loader looks up in
     LD_LIBRARY_PATH, the loader cache and the default folders;
  3. what ctypes.util.find_library("tcsparse") names.
The major version of the loaded library must equal EXPECTED_MAJOR: within a major
version every function keeps its signature (docs/ABI.md).

Every tcs* function of the C API is an attribute of Library with its argtypes
declared; a status other than TCS_STATUS_SUCCESS raises TcsError. Enum values are
module constants with their C names (TCS_INDEX_32I, CUDA_R_64F, ...).

    import tcsparse_ctypes as tcs
    lib = tcs.load()
    C = tcs.spgemm(A, B)      # A, B: scipy.sparse CSR; C = A @ B computed on the GPU
    Y = tcs.spmm(A, X)        # X: numpy 2-D array; Y = A @ X computed on the GPU

spgemm and spmm need numpy and scipy, and the CUDA runtime (libcudart.so) for
device memory; loading the module and calling the C API need neither.
"""
import contextlib
import ctypes
import ctypes.util
import enum
import os

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
    globals().update(_enum.__members__)

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
    """A tcs* call returned a status other than TCS_STATUS_SUCCESS."""

    def __init__(self, function, status, name, text):
        self.function = function
        self.status = Status(status) if status in Status._value2member_map_ else status
        self.name = name
        self.text = text
        super().__init__("%s: %s (%s)" % (function, name, text))


class VersionMismatchError(ImportError):
    """The library found has another major version than this module was written for."""


def _candidates(path):
    if path:
        return [path]
    if os.environ.get("TCSPARSE_LIBRARY"):
        return [os.environ["TCSPARSE_LIBRARY"]]
    names = [SONAME]
    found = ctypes.util.find_library("tcsparse")
    if found and found not in names:
        names.append(found)
    return names


class Library:
    """libtcsparse loaded with ctypes; each tcs* function is an attribute."""

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
        for name, codes in PROTOTYPES.items():
            function = getattr(self._dll, name)
            function.argtypes = [_ARGUMENT_TYPES[c] for c in codes]
            if name in _STRING_FUNCTIONS:
                function.restype = ctypes.c_char_p
            else:
                function.restype = ctypes.c_int
                function.errcheck = self._check
            setattr(self, name, function)
        self.version = self.get_version()
        check_version(self.version)

    def _check(self, status, function, _arguments):
        if status != TCS_STATUS_SUCCESS:
            raise TcsError(function.__name__, status, self.error_name(status),
                           self.error_string(status))
        return status

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
        """A tcsHandle_t for the duration of a with block (TcsError without a GPU)."""
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


# ---------------------------------------------------------------------------------
# Helpers: scipy/numpy in, scipy/numpy out, the product computed by tcsparse.
# ---------------------------------------------------------------------------------

def _value_type(np, *dtypes):
    dtype = np.result_type(*dtypes)
    if dtype == np.float32:
        return np.dtype(np.float32), CUDA_R_32F, ctypes.c_float
    return np.dtype(np.float64), CUDA_R_64F, ctypes.c_double


def _describe_csr(lib, cuda, stack, np, matrix, dtype, value_type, base):
    """Uploads a scipy CSR matrix (32-bit indices, shifted to `base`) and describes it."""
    rows, cols = matrix.shape
    descr = ctypes.c_void_p()
    lib.tcsCreateConstCsr(
        ctypes.byref(descr), rows, cols, matrix.nnz,
        cuda.upload(stack, np.ascontiguousarray(matrix.indptr + base, dtype=np.int32)),
        cuda.upload(stack, np.ascontiguousarray(matrix.indices + base, dtype=np.int32)),
        cuda.upload(stack, np.ascontiguousarray(matrix.data, dtype=dtype)),
        TCS_INDEX_32I, TCS_INDEX_32I, base, value_type)
    stack.callback(lib.tcsDestroySpMat, descr)
    return descr


def _check_32bit(matrix):
    if matrix.nnz >= 2**31 or max(matrix.shape) >= 2**31:
        raise ValueError("tcsparse computes with 32-bit indices: the matrix is too large")


def spgemm(a, b, alpha=1.0, index_base=0, alg=None, lib=None):
    """alpha * a @ b for scipy.sparse matrices, computed on the GPU through the full
    SpGEMM protocol. float32 inputs give a float32 result, anything else float64.
    index_base (0 or 1) is the base of the arrays handed to the library. Entries
    whose products cancel are kept as explicit zeros (tcsparse keeps the symbolic
    pattern). Returns a scipy.sparse.csr_matrix with sorted column indices."""
    import numpy as np
    import scipy.sparse as sp

    lib = lib or load()
    cuda = cuda_runtime()
    alg = SpGEMMAlg.TCS_SPGEMM_DEFAULT if alg is None else alg
    a = sp.csr_matrix(a)
    b = sp.csr_matrix(b)
    if a.shape[1] != b.shape[0]:
        raise ValueError("shapes %s and %s do not multiply" % (a.shape, b.shape))
    _check_32bit(a)
    _check_32bit(b)
    dtype, value_type, scalar = _value_type(np, a.dtype, b.dtype)
    m, n = a.shape[0], b.shape[1]
    alpha_value, beta_value = scalar(alpha), scalar(0)
    op = TCS_OPERATION_NON_TRANSPOSE

    with lib.handle() as handle, contextlib.ExitStack() as stack:
        mat_a = _describe_csr(lib, cuda, stack, np, a, dtype, value_type, index_base)
        mat_b = _describe_csr(lib, cuda, stack, np, b, dtype, value_type, index_base)
        c_row_ptr = cuda.allocate(stack, 4 * (m + 1))
        mat_c = ctypes.c_void_p()
        lib.tcsCreateCsr(ctypes.byref(mat_c), m, n, 0, c_row_ptr, None, None,
                         TCS_INDEX_32I, TCS_INDEX_32I, index_base, value_type)
        stack.callback(lib.tcsDestroySpMat, mat_c)
        descr = ctypes.c_void_p()
        lib.tcsSpGEMM_createDescr(ctypes.byref(descr))
        stack.callback(lib.tcsSpGEMM_destroyDescr, descr)

        common = (handle, op, op, ctypes.byref(alpha_value), mat_a, mat_b,
                  ctypes.byref(beta_value), mat_c, value_type, alg, descr)
        size1 = ctypes.c_size_t(0)
        lib.tcsSpGEMM_workEstimation(*common, ctypes.byref(size1), None)
        buffer1 = cuda.allocate(stack, size1.value)
        lib.tcsSpGEMM_workEstimation(*common, ctypes.byref(size1), buffer1)
        size2 = ctypes.c_size_t(0)
        lib.tcsSpGEMM_compute(*common, ctypes.byref(size2), None)
        buffer2 = cuda.allocate(stack, size2.value)
        lib.tcsSpGEMM_compute(*common, ctypes.byref(size2), buffer2)

        rows, cols, nnz = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        lib.tcsSpMatGetSize(mat_c, ctypes.byref(rows), ctypes.byref(cols), ctypes.byref(nnz))
        c_columns = cuda.allocate(stack, 4 * nnz.value)
        c_values = cuda.allocate(stack, dtype.itemsize * nnz.value)
        lib.tcsCsrSetPointers(mat_c, c_row_ptr, c_columns, c_values)
        lib.tcsSpGEMM_copy(*common)
        cuda.synchronize()

        indptr = cuda.download(np.empty(m + 1, dtype=np.int32), c_row_ptr) - index_base
        indices = cuda.download(np.empty(nnz.value, dtype=np.int32), c_columns) - index_base
        data = cuda.download(np.empty(nnz.value, dtype=dtype), c_values)
    return sp.csr_matrix((data, indices, indptr), shape=(m, n))


def spmm(a, x, alpha=1.0, beta=0.0, c=None, index_base=0, alg=None, lib=None):
    """alpha * a @ x + beta * c for a scipy.sparse matrix a and numpy 2-D arrays x and
    c, computed on the GPU by tcsSpMM. x may be C- or Fortran-ordered (it is handed
    over in its own order); the result has the order of c, or C order without c.
    float32 inputs give a float32 result, anything else float64."""
    import numpy as np
    import scipy.sparse as sp

    lib = lib or load()
    cuda = cuda_runtime()
    alg = SpMMAlg.TCS_SPMM_ALG_DEFAULT if alg is None else alg
    a = sp.csr_matrix(a)
    x = np.asarray(x)
    if x.ndim != 2 or a.shape[1] != x.shape[0]:
        raise ValueError("shapes %s and %s do not multiply" % (a.shape, x.shape))
    _check_32bit(a)
    dtype, value_type, scalar = _value_type(np, a.dtype, x.dtype)
    m, n = a.shape[0], x.shape[1]
    alpha_value, beta_value = scalar(alpha), scalar(beta if c is not None else 0)
    c_order = "F" if c is not None and np.isfortran(c) else "C"
    x = np.asarray(x, dtype=dtype, order="F" if np.isfortran(x) else "C")
    c_host = (np.zeros((m, n), dtype=dtype, order=c_order) if c is None
              else np.array(c, dtype=dtype, order=c_order))
    if c_host.shape != (m, n):
        raise ValueError("c has shape %s, expected %s" % (c_host.shape, (m, n)))

    def describe_dense(stack, create, array, pointer):
        column_major = np.isfortran(array)  # F-contiguous and not C-contiguous
        rows, cols = array.shape
        ld = max(rows if column_major else cols, 1)
        descr = ctypes.c_void_p()
        create(ctypes.byref(descr), rows, cols, ld, pointer, value_type,
               TCS_ORDER_COL if column_major else TCS_ORDER_ROW)
        stack.callback(lib.tcsDestroyDnMat, descr)
        return descr

    op = TCS_OPERATION_NON_TRANSPOSE
    with lib.handle() as handle, contextlib.ExitStack() as stack:
        mat_a = _describe_csr(lib, cuda, stack, np, a, dtype, value_type, index_base)
        x_device = cuda.upload(stack, x)
        c_device = cuda.upload(stack, c_host)
        mat_x = describe_dense(stack, lib.tcsCreateConstDnMat, x, x_device)
        mat_c = describe_dense(stack, lib.tcsCreateDnMat, c_host, c_device)
        common = (handle, op, op, ctypes.byref(alpha_value), mat_a, mat_x,
                  ctypes.byref(beta_value), mat_c, value_type, alg)
        size = ctypes.c_size_t(0)
        lib.tcsSpMM_bufferSize(*common, ctypes.byref(size))
        buffer = cuda.allocate(stack, size.value)
        lib.tcsSpMM(*common, buffer)
        cuda.synchronize()
        cuda.download(c_host, c_device)
    return c_host


def spmv(a, x, alpha=1.0, beta=0.0, y=None, index_base=0, transpose=False, lib=None):
    """alpha * op(a) @ x + beta * y for a scipy.sparse matrix a and numpy vectors x and y,
    computed on the GPU by tcsSpMV (op(a) = a.T with transpose=True). float32 inputs
    give a float32 result, anything else float64."""
    import numpy as np
    import scipy.sparse as sp

    lib = lib or load()
    cuda = cuda_runtime()
    a = sp.csr_matrix(a)
    m, k = (a.shape[1], a.shape[0]) if transpose else a.shape
    x = np.asarray(x)
    if x.shape != (k,):
        raise ValueError("x has shape %s, expected %s" % (x.shape, (k,)))
    _check_32bit(a)
    dtype, value_type, scalar = _value_type(np, a.dtype, x.dtype)
    alpha_value, beta_value = scalar(alpha), scalar(beta if y is not None else 0)
    x = np.ascontiguousarray(x, dtype=dtype)
    y_host = np.zeros(m, dtype=dtype) if y is None else np.array(y, dtype=dtype)
    if y_host.shape != (m,):
        raise ValueError("y has shape %s, expected %s" % (y_host.shape, (m,)))

    def describe_vector(stack, create, array, pointer):
        descr = ctypes.c_void_p()
        create(ctypes.byref(descr), array.shape[0], pointer, value_type)
        stack.callback(lib.tcsDestroyDnVec, descr)
        return descr

    op = TCS_OPERATION_TRANSPOSE if transpose else TCS_OPERATION_NON_TRANSPOSE
    with lib.handle() as handle, contextlib.ExitStack() as stack:
        mat_a = _describe_csr(lib, cuda, stack, np, a, dtype, value_type, index_base)
        x_device = cuda.upload(stack, x)
        y_device = cuda.upload(stack, y_host)
        vec_x = describe_vector(stack, lib.tcsCreateConstDnVec, x, x_device)
        vec_y = describe_vector(stack, lib.tcsCreateDnVec, y_host, y_device)
        common = (handle, op, ctypes.byref(alpha_value), mat_a, vec_x, ctypes.byref(beta_value),
                  vec_y, value_type, TCS_SPMV_ALG_DEFAULT)
        size = ctypes.c_size_t(0)
        lib.tcsSpMV_bufferSize(*common, ctypes.byref(size))
        buffer = cuda.allocate(stack, size.value)
        lib.tcsSpMV(*common, buffer)
        cuda.synchronize()
        cuda.download(y_host, y_device)
    return y_host
