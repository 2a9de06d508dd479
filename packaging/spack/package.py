# Spack recipe of tcsparse (Spack 0.23 or newer: compilers as dependencies). Until
# tcsparse has a public release to download, install it from a checkout, in an
# environment, with the recipe in a repository of your own:
#   spack repo create ~/spack-repo tcsparse_local && spack repo add ~/spack-repo
#   mkdir -p ~/spack-repo/packages/tcsparse
#   cp <checkout>/packaging/spack/package.py ~/spack-repo/packages/tcsparse/
#   spack env activate -d . && spack add tcsparse@0.2.0 +cuda cuda_arch=90
#   spack develop --no-clone --path <checkout> tcsparse@0.2.0 && spack install
# Checked without Spack by the host test spack_package (tests/packaging/check_spack_package.py).
from spack.package import *


class Tcsparse(CMakePackage, CudaPackage):
    """Sparse matrix products on NVIDIA GPUs (SpGEMM, SpMM, SpMV; hash, tiled and
    tensor-core algorithms) behind a C API that mirrors the cuSPARSE generic API, with
    a binary swap-in library that runs unmodified cuSPARSE programs on it."""

    version("0.2.0")

    variant("shim", default=True, description="Build libtcsparse_cusparse, the LD_PRELOAD swap-in for cuSPARSE")
    variant("fortran", default=False, description="Build and run the Fortran module's tests (needs +tests)")
    variant("tests", default=False, description="Build the cmocka tests; `spack install --test=root` runs the host ones")

    # tcsparse is CUDA only: CudaPackage's cuda variant must be on, with an arch of
    # compute capability 8.0 or newer (the tensor-core kernels use sm_80 instructions).
    conflicts("~cuda", msg="tcsparse needs CUDA")
    conflicts("cuda_arch=none", when="+cuda", msg="name the GPU: cuda_arch=80, 90, ...")
    for _arch in CudaPackage.cuda_arch_values:
        if int(_arch.rstrip("af")) < 80:
            conflicts(f"cuda_arch={_arch}", msg="tcsparse needs compute capability 8.0 or newer")
    conflicts("+fortran", when="~tests", msg="+fortran builds the Fortran tests: add +tests")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("fortran", type="build", when="+fortran")
    depends_on("cmake@3.25:", type="build")
    depends_on("cuda@12:")
    depends_on("python@3:", type="build", when="+shim")
    depends_on("cmocka", when="+tests")

    def cmake_args(self):
        archs = self.spec.variants["cuda_arch"].value
        return [
            self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(archs)),
            self.define("CUDAToolkit_ROOT", self.spec["cuda"].prefix),
            self.define_from_variant("TCS_BUILD_SHIM", "shim"),
            self.define_from_variant("TCS_FORTRAN", "fortran"),
            self.define_from_variant("TCS_BUILD_TESTS", "tests"),
            self.define_from_variant("BUILD_TESTING", "tests"),
            self.define("TCS_BUILD_BENCH", False),
            self.define("TCS_BUILD_EXAMPLES", False),
        ]

    def check(self):
        # The host tests: the GPU ones skip without a GPU, the emulation sweeps take long.
        if self.spec.satisfies("+tests"):
            with working_dir(self.build_directory):
                ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
                ctest("--output-on-failure", "-LE", "gpu|emulation")

    @property
    def libs(self):
        return find_libraries("libtcsparse", root=self.prefix, shared=True, recursive=True)
