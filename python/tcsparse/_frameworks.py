"""What the products need from CuPy and PyTorch: device pointers of their arrays (no
copy), new arrays in the caller's framework, the current device and stream, and CSR
matrices taken apart and put together. Host inputs (scipy.sparse, numpy) go through
whichever of the two is installed, CuPy first.

CuPy arrays are read through __cuda_array_interface__; PyTorch tensors through their
data_ptr() and strides, which cover the 16-bit types that the interface cannot name.
"""


class _Cupy:
    name = "cupy"

    def __init__(self):
        import cupy
        import cupyx.scipy.sparse
        import numpy
        self.cp, self.sparse, self.np = cupy, cupyx.scipy.sparse, numpy

    def owns(self, obj):
        return isinstance(obj, self.cp.ndarray) or self.sparse.issparse(obj)

    def is_csr(self, obj):
        return self.sparse.isspmatrix_csr(obj)

    def device(self, obj):
        array = obj.data if self.sparse.issparse(obj) else obj
        return array.device.id

    def current_device(self):
        return self.cp.cuda.Device().id

    def use_device(self, index):
        return self.cp.cuda.Device(index)

    def stream(self):
        return self.cp.cuda.get_current_stream().ptr

    def empty(self, shape, dtype):
        return self.cp.empty(shape, dtype=dtype)

    def pointer(self, array):
        return array.__cuda_array_interface__["data"][0]

    def describe(self, array):
        """(shape, strides in elements or None for C order, dtype name)"""
        interface = array.__cuda_array_interface__
        dtype = self.np.dtype(interface["typestr"])
        strides = interface.get("strides")
        if strides is not None:
            strides = tuple(s // dtype.itemsize for s in strides)
        return tuple(interface["shape"]), strides, dtype.name

    def csr(self, matrix):
        return matrix.indptr, matrix.indices, matrix.data, tuple(matrix.shape)

    def make_csr(self, indptr, indices, data, shape):
        return self.sparse.csr_matrix((data, indices, indptr), shape=shape)

    def from_host(self, array):
        return self.cp.asarray(array)

    def to_host(self, array):
        return self.cp.asnumpy(array)


class _Torch:
    name = "torch"

    def __init__(self):
        import torch
        self.torch = torch

    def owns(self, obj):
        return isinstance(obj, self.torch.Tensor)

    def is_csr(self, obj):
        return obj.layout == self.torch.sparse_csr

    def device(self, obj):
        if obj.device.type != "cuda":
            raise ValueError("tcsparse: a PyTorch tensor on %s: move it to the GPU (.cuda()), or "
                             "pass scipy.sparse/numpy for a product copied in and out" % obj.device)
        return obj.device.index

    def current_device(self):
        return self.torch.cuda.current_device()

    def use_device(self, index):
        return self.torch.cuda.device(index)

    def stream(self):
        return self.torch.cuda.current_stream().cuda_stream

    def empty(self, shape, dtype):
        return self.torch.empty(shape, dtype=getattr(self.torch, dtype), device="cuda")

    def pointer(self, tensor):
        return tensor.data_ptr()

    def describe(self, tensor):
        return tuple(tensor.shape), tuple(tensor.stride()), str(tensor.dtype).split(".")[-1]

    def csr(self, matrix):
        if matrix.dim() != 2:
            raise ValueError("tcsparse: a batched CSR tensor (%d dimensions); pass 2-D ones"
                             % matrix.dim())
        return (matrix.crow_indices(), matrix.col_indices(), matrix.values(),
                tuple(matrix.shape))

    def make_csr(self, indptr, indices, data, shape):
        return self.torch.sparse_csr_tensor(indptr, indices, data, size=shape)

    def from_host(self, array):
        return self.torch.from_numpy(array).cuda()

    def to_host(self, tensor):
        return tensor.cpu().numpy()


_loaded = {}


def framework(name):
    """The adapter of "cupy" or "torch"; None when that framework cannot be imported."""
    if name not in _loaded:
        try:
            _loaded[name] = {"cupy": _Cupy, "torch": _Torch}[name]()
        except ImportError:
            _loaded[name] = None
    return _loaded[name]


def _module_root(obj):
    return type(obj).__module__.split(".")[0]


def owner(obj):
    """"host" for scipy.sparse and numpy, the adapter for CuPy and PyTorch objects;
    TypeError for anything else."""
    root = _module_root(obj)
    if root in ("scipy", "numpy"):
        return "host"
    if root in ("cupy", "cupyx", "torch"):
        adapter = framework("torch" if root == "torch" else "cupy")
        if adapter is not None and adapter.owns(obj):
            return adapter
    raise TypeError("tcsparse: %s.%s is neither a CuPy or PyTorch array/CSR matrix nor a "
                    "scipy.sparse matrix or numpy array" % (type(obj).__module__, type(obj).__name__))


def host_device_framework():
    """The framework that carries host inputs to the GPU: CuPy, else PyTorch."""
    for name in ("cupy", "torch"):
        adapter = framework(name)
        if adapter is not None:
            return adapter
    raise RuntimeError("tcsparse: scipy/numpy inputs are copied to the GPU through CuPy or "
                       "PyTorch, and neither can be imported: install one of them")
