"""spgemm, spmm and spmv on CuPy and PyTorch operands (in place on the GPU, on the
framework's current device and stream) and on scipy.sparse/numpy operands (copied to
the GPU and back)."""
import contextlib
import ctypes
import threading

from . import _capi, _frameworks
from ._capi import Math, SpGEMMAlg, SpMMAlg, SpMVAlg

_VALUE_TYPES = {  # dtype name: (value type, compute type, ctypes scalar)
    "float32": (_capi.CUDA_R_32F, _capi.CUDA_R_32F, ctypes.c_float),
    "float64": (_capi.CUDA_R_64F, _capi.CUDA_R_64F, ctypes.c_double),
    "float16": (_capi.CUDA_R_16F, _capi.CUDA_R_32F, ctypes.c_float),
    "bfloat16": (_capi.CUDA_R_16BF, _capi.CUDA_R_32F, ctypes.c_float),
}
_INDEX_TYPES = {"int32": _capi.TCS_INDEX_32I, "int64": _capi.TCS_INDEX_64I}
_NON_TRANSPOSE = _capi.TCS_OPERATION_NON_TRANSPOSE

_threads = threading.local()


def _handle(lib, device):
    """This thread's handle on `device`: a handle may serve one thread at a time
    (tcsparse.h), and creating one reads the device's properties, so each thread keeps
    one per device."""
    handles = _threads.__dict__.setdefault("handles", {})
    if device not in handles:
        handle = ctypes.c_void_p()
        lib.tcsCreate(ctypes.byref(handle))
        handles[device] = handle
    return handles[device]


def _value_types(dtype):
    if dtype not in _VALUE_TYPES:
        raise TypeError("tcsparse: values of type %s; the library takes float32, float64, "
                        "float16 and bfloat16" % dtype)
    return _VALUE_TYPES[dtype]


class _Call:
    """What one product needs: the library, the operands' framework, the handle bound
    to the framework's current stream, and the descriptors it creates (destroyed at
    the end of the with block)."""

    def __init__(self, adapter, device, math):
        self.lib = _capi.load()
        self.fw = adapter
        self.handle = _handle(self.lib, device)
        self.lib.tcsSetStream(self.handle, adapter.stream())
        self.lib.tcsSetMathMode(self.handle, Math(math))
        self.stack = contextlib.ExitStack()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.stack.__exit__(*exc)

    def csr(self, matrix, create):
        """(descriptor, shape, dtype name, index dtype name) of a CSR operand."""
        indptr, indices, data, shape = self.fw.csr(matrix)
        index = self.fw.describe(indptr)[2]
        if index != self.fw.describe(indices)[2] or index not in _INDEX_TYPES:
            raise TypeError("tcsparse: CSR row offsets and column indices must both be int32 "
                            "or both int64 (got %s and %s)"
                            % (index, self.fw.describe(indices)[2]))
        dtype = self.fw.describe(data)[2]
        value_type = _value_types(dtype)[0]
        descr = ctypes.c_void_p()
        create(ctypes.byref(descr), shape[0], shape[1], self.fw.describe(data)[0][0],
               self.fw.pointer(indptr), self.fw.pointer(indices), self.fw.pointer(data),
               _INDEX_TYPES[index], _INDEX_TYPES[index], _capi.TCS_INDEX_BASE_ZERO, value_type)
        self.stack.callback(self.lib.tcsDestroySpMat, descr)
        return descr, shape, dtype, index

    def dense(self, array, create, value_type):
        """A dense-matrix descriptor over `array` as it lies: row-major when its rows are
        contiguous, column-major when its columns are, with the stride as the leading
        dimension."""
        shape, strides, _ = self.fw.describe(array)
        rows, cols = shape
        strides = strides or (cols, 1)
        if strides[1] == 1 and (strides[0] >= max(cols, 1) or rows <= 1):
            order, ld = _capi.TCS_ORDER_ROW, max(strides[0], cols, 1)
        elif strides[0] == 1 and (strides[1] >= max(rows, 1) or cols <= 1):
            order, ld = _capi.TCS_ORDER_COL, max(strides[1], rows, 1)
        else:
            raise ValueError("tcsparse: a dense matrix with strides %s (elements): neither its "
                             "rows nor its columns are contiguous" % (strides,))
        descr = ctypes.c_void_p()
        create(ctypes.byref(descr), rows, cols, ld, self.fw.pointer(array), value_type, order)
        self.stack.callback(self.lib.tcsDestroyDnMat, descr)
        return descr

    def vector(self, array, create, value_type):
        shape, strides, _ = self.fw.describe(array)
        if len(shape) != 1 or (strides is not None and shape[0] > 1 and strides[0] != 1):
            raise ValueError("tcsparse: a vector must be 1-D and contiguous (shape %s, strides %s)"
                             % (shape, strides))
        descr = ctypes.c_void_p()
        create(ctypes.byref(descr), shape[0], self.fw.pointer(array), value_type)
        self.stack.callback(self.lib.tcsDestroyDnVec, descr)
        return descr

    def with_buffer(self, size_query, compute, arguments):
        """size_query(*arguments, &size), then compute(*arguments, buffer of that size)."""
        size = ctypes.c_size_t(0)
        size_query(*arguments, ctypes.byref(size))
        scratch, pointer = self.buffer(size)
        compute(*arguments, pointer)
        return scratch

    def buffer(self, size):
        """Scratch of `size` bytes from the framework's allocator. It is released after
        the call, while the kernels may still run: both allocators order reuse on the
        stream the memory was taken on, which is the handle's."""
        if size.value == 0:
            return None, None
        array = self.fw.empty((size.value,), "uint8")
        return array, self.fw.pointer(array)


def _operands(*objects):
    """(adapter, device) of the operands given (None entries left out), or ("host", None)
    for scipy/numpy ones; TypeError when they come from different frameworks."""
    owners = [_frameworks.owner(obj) for obj in objects if obj is not None]
    if any(o is not owners[0] for o in owners):
        raise TypeError("tcsparse: the operands come from different frameworks (%s); give "
                        "them all as CuPy, all as PyTorch, or all as scipy/numpy"
                        % ", ".join(sorted({getattr(o, "name", o) for o in owners})))
    if owners[0] == "host":
        return "host", None
    adapter = owners[0]
    devices = {adapter.device(obj) for obj in objects if obj is not None}
    if len(devices) != 1:
        raise ValueError("tcsparse: the operands lie on different GPUs %s" % sorted(devices))
    return adapter, devices.pop()


_gpu_found = False


def _host_framework():
    """The framework host operands travel through; NoGpuError first when there is no
    GPU, so that a machine without one gets that reason whatever is installed."""
    global _gpu_found
    if not _gpu_found:
        with _capi.load().handle():
            _gpu_found = True
    return _frameworks.host_device_framework()


def _host_dtype(*dtypes):
    import numpy as np
    return np.float32 if all(d == np.float32 for d in dtypes) else np.float64


def _csr_to_device(adapter, matrix, dtype):
    import numpy as np
    import scipy.sparse as sp
    matrix = sp.csr_matrix(matrix)
    index = np.int64 if max(matrix.shape + (matrix.nnz,)) >= 2**31 else np.int32
    return adapter.make_csr(adapter.from_host(matrix.indptr.astype(index)),
                            adapter.from_host(matrix.indices.astype(index)),
                            adapter.from_host(matrix.data.astype(dtype)), matrix.shape)


def _dense_on_host(compute, a, x, out):
    """spmm or spmv (`compute`) of a scipy.sparse a and numpy x and out: copied to the
    GPU (x and out in their own order when contiguous), computed, the result copied back."""
    import numpy as np
    adapter = _host_framework()
    dtype = _host_dtype(a.dtype, x.dtype, *([out.dtype] if out is not None else []))

    def upload(array):
        array = np.asarray(array, dtype=dtype)
        if not (array.flags.c_contiguous or array.flags.f_contiguous):
            array = np.ascontiguousarray(array)
        return adapter.from_host(array)

    device = adapter.current_device()
    with adapter.use_device(device):
        result = compute(adapter, device, _csr_to_device(adapter, a, dtype), upload(x),
                         None if out is None else upload(out))
        return adapter.to_host(result)


def spgemm(a, b, alpha=1.0, alg=SpGEMMAlg.DEFAULT, math=Math.DEFAULT):
    """alpha * a @ b, both CSR, computed by tcsparse's SpGEMM.

    a, b: CuPy csr_matrix, PyTorch sparse CSR tensors (on one GPU, one value type,
    int32 or int64 indices), or scipy.sparse matrices. Returns a CSR matrix of the same
    kind: computed in place on the framework's current stream (no host copy; the call
    waits for the stream twice, as tcsSpGEMM_workEstimation and _compute do, to size
    C), or for scipy inputs copied in and out (float32 when both are float32, else
    float64). C has the index type of a (CuPy: int32), sorted columns, and the symbolic
    pattern: entries whose products cancel are stored as zeros."""
    adapter, device = _operands(a, b)
    if adapter == "host":
        adapter = _host_framework()
        dtype = _host_dtype(a.dtype, b.dtype)
        with adapter.use_device(adapter.current_device()):
            c = _spgemm(adapter, adapter.current_device(), _csr_to_device(adapter, a, dtype),
                        _csr_to_device(adapter, b, dtype), alpha, alg, math)
            indptr, indices, data, shape = adapter.csr(c)
            import scipy.sparse as sp
            return sp.csr_matrix((adapter.to_host(data), adapter.to_host(indices),
                                  adapter.to_host(indptr)), shape=shape)
    with adapter.use_device(device):
        return _spgemm(adapter, device, a, b, alpha, alg, math)


def _spgemm(fw, device, a, b, alpha, alg, math):
    for operand in (a, b):
        if not fw.is_csr(operand):
            raise TypeError("tcsparse.spgemm multiplies two CSR matrices")
    with _Call(fw, device, math) as call:
        lib = call.lib
        mat_a, (m, k), dtype, index = call.csr(a, lib.tcsCreateConstCsr)
        mat_b, (k2, n), dtype_b, _ = call.csr(b, lib.tcsCreateConstCsr)
        if k != k2:
            raise ValueError("tcsparse.spgemm: shapes %s and %s do not multiply" % ((m, k), (k2, n)))
        if dtype != dtype_b:
            raise TypeError("tcsparse.spgemm: a holds %s, b %s: give both one type" % (dtype, dtype_b))
        value_type, compute_type, scalar = _value_types(dtype)
        if fw.name == "cupy":
            index = "int32"  # CuPy's sparse matrices hold 32-bit indices only
        c_indptr = fw.empty((m + 1,), index)
        mat_c = ctypes.c_void_p()
        lib.tcsCreateCsr(ctypes.byref(mat_c), m, n, 0, fw.pointer(c_indptr), None, None,
                         _INDEX_TYPES[index], _INDEX_TYPES[index], _capi.TCS_INDEX_BASE_ZERO,
                         value_type)
        call.stack.callback(lib.tcsDestroySpMat, mat_c)
        descr = ctypes.c_void_p()
        lib.tcsSpGEMM_createDescr(ctypes.byref(descr))
        call.stack.callback(lib.tcsSpGEMM_destroyDescr, descr)

        alpha_value, beta_value = scalar(alpha), scalar(0)
        common = (call.handle, _NON_TRANSPOSE, _NON_TRANSPOSE, ctypes.byref(alpha_value), mat_a,
                  mat_b, ctypes.byref(beta_value), mat_c, compute_type, SpGEMMAlg(alg), descr)
        size1, size2 = ctypes.c_size_t(0), ctypes.c_size_t(0)
        lib.tcsSpGEMM_workEstimation(*common, ctypes.byref(size1), None)
        buffer1, pointer1 = call.buffer(size1)
        lib.tcsSpGEMM_workEstimation(*common, ctypes.byref(size1), pointer1)
        lib.tcsSpGEMM_compute(*common, ctypes.byref(size2), None)
        buffer2, pointer2 = call.buffer(size2)
        lib.tcsSpGEMM_compute(*common, ctypes.byref(size2), pointer2)
        rows, cols, nnz = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        lib.tcsSpMatGetSize(mat_c, ctypes.byref(rows), ctypes.byref(cols), ctypes.byref(nnz))
        c_indices = fw.empty((nnz.value,), index)
        c_values = fw.empty((nnz.value,), dtype)
        lib.tcsCsrSetPointers(mat_c, fw.pointer(c_indptr),
                              fw.pointer(c_indices) if nnz.value else None,
                              fw.pointer(c_values) if nnz.value else None)
        lib.tcsSpGEMM_copy(*common)
        del buffer1, buffer2
    return fw.make_csr(c_indptr, c_indices, c_values, (m, n))


def spmm(a, x, alpha=1.0, beta=0.0, out=None, alg=SpMMAlg.DEFAULT, math=Math.DEFAULT):
    """alpha * a @ x + beta * out, with a CSR and x, out dense 2-D, by tcsSpMM.

    CuPy or PyTorch operands (one GPU, one value type; x row- or column-major, any
    leading dimension): computed on the framework's current stream without waiting
    for it; the result is `out`, written in place, or a new row-major array when out
    is None (beta is then ignored). scipy.sparse a with numpy x and out: copied in and
    out, a new numpy array returned (float32 when all are float32, else float64)."""
    adapter, device = _operands(a, x, out)
    if adapter == "host":
        return _dense_on_host(lambda fw, index, da, dx, dout:
                              _spmm(fw, index, da, dx, alpha, beta, dout, alg, math), a, x, out)
    with adapter.use_device(device):
        return _spmm(adapter, device, a, x, alpha, beta, out, alg, math)


def _spmm(fw, device, a, x, alpha, beta, out, alg, math):
    if not fw.is_csr(a):
        raise TypeError("tcsparse.spmm: a must be a CSR matrix")
    with _Call(fw, device, math) as call:
        lib = call.lib
        mat_a, (m, k), dtype, _ = call.csr(a, lib.tcsCreateConstCsr)
        x_shape, _, x_dtype = fw.describe(x)
        if len(x_shape) != 2 or x_shape[0] != k:
            raise ValueError("tcsparse.spmm: shapes %s and %s do not multiply" % ((m, k), x_shape))
        if x_dtype != dtype:
            raise TypeError("tcsparse.spmm: a holds %s, x %s: give both one type" % (dtype, x_dtype))
        value_type, compute_type, scalar = _value_types(dtype)
        if out is None:
            out, beta = fw.empty((m, x_shape[1]), dtype), 0.0
        out_shape, _, out_dtype = fw.describe(out)
        if out_shape != (m, x_shape[1]) or out_dtype != dtype:
            raise ValueError("tcsparse.spmm: out is %s %s, the product %s %s"
                             % (out_dtype, out_shape, dtype, (m, x_shape[1])))
        mat_x = call.dense(x, lib.tcsCreateConstDnMat, value_type)
        mat_out = call.dense(out, lib.tcsCreateDnMat, value_type)
        alpha_value, beta_value = scalar(alpha), scalar(beta)
        common = (call.handle, _NON_TRANSPOSE, _NON_TRANSPOSE, ctypes.byref(alpha_value), mat_a,
                  mat_x, ctypes.byref(beta_value), mat_out, compute_type, SpMMAlg(alg))
        call.with_buffer(lib.tcsSpMM_bufferSize, lib.tcsSpMM, common)
    return out


def spmv(a, x, alpha=1.0, beta=0.0, out=None, transpose=False, alg=SpMVAlg.DEFAULT,
         math=Math.DEFAULT):
    """alpha * op(a) @ x + beta * out, with a CSR and x, out vectors, by tcsSpMV;
    op(a) is a.T when transpose is true. Operands and results as in spmm: CuPy or
    PyTorch in place on the current stream (out written, or a new vector), or
    scipy/numpy copied in and out."""
    adapter, device = _operands(a, x, out)
    if adapter == "host":
        return _dense_on_host(lambda fw, index, da, dx, dout:
                              _spmv(fw, index, da, dx, alpha, beta, dout, transpose, alg, math),
                              a, x, out)
    with adapter.use_device(device):
        return _spmv(adapter, device, a, x, alpha, beta, out, transpose, alg, math)


def _spmv(fw, device, a, x, alpha, beta, out, transpose, alg, math):
    if not fw.is_csr(a):
        raise TypeError("tcsparse.spmv: a must be a CSR matrix")
    with _Call(fw, device, math) as call:
        lib = call.lib
        mat_a, (rows, cols), dtype, _ = call.csr(a, lib.tcsCreateConstCsr)
        m, k = (cols, rows) if transpose else (rows, cols)
        x_shape, _, x_dtype = fw.describe(x)
        if x_shape != (k,):
            raise ValueError("tcsparse.spmv: x has shape %s, op(a) is %s" % (x_shape, (m, k)))
        if x_dtype != dtype:
            raise TypeError("tcsparse.spmv: a holds %s, x %s: give both one type" % (dtype, x_dtype))
        value_type, compute_type, scalar = _value_types(dtype)
        if out is None:
            out, beta = fw.empty((m,), dtype), 0.0
        if fw.describe(out)[0] != (m,) or fw.describe(out)[2] != dtype:
            raise ValueError("tcsparse.spmv: out is %s %s, the product %s (%d,)"
                             % (fw.describe(out)[2], fw.describe(out)[0], dtype, m))
        vec_x = call.vector(x, lib.tcsCreateConstDnVec, value_type)
        vec_out = call.vector(out, lib.tcsCreateDnVec, value_type)
        op = _capi.TCS_OPERATION_TRANSPOSE if transpose else _NON_TRANSPOSE
        alpha_value, beta_value = scalar(alpha), scalar(beta)
        common = (call.handle, op, ctypes.byref(alpha_value), mat_a, vec_x,
                  ctypes.byref(beta_value), vec_out, compute_type, SpMVAlg(alg))
        call.with_buffer(lib.tcsSpMV_bufferSize, lib.tcsSpMV, common)
    return out
