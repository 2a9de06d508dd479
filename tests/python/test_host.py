"""Host-only tests of the package's C API layer (python/tcsparse/_capi.py) against the
built library (no GPU, no numpy): loading, version, error strings, argument errors, descriptor round trips, and
that the module's prototypes and enums match tcsparse.h and docs/symbols.txt.

Environment: TCSPARSE_LIBRARY=<path of libtcsparse.so.X.Y.Z> (ctest sets it);
TCS_CUDA_INCLUDE_DIR (optional) to check the cudaDataType values against library_types.h.
Run: python3 tests/python/test_host.py
"""
import ctypes
import os
import pathlib
import re
import subprocess
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from tcsparse import _capi as tcs  # noqa: E402

HEADER = (ROOT / "include" / "tcsparse.h").read_text()


def header_prototypes():
    """{function: number of arguments} for every TCS_API function of tcsparse.h."""
    found = re.findall(r"TCS_API\s+[^;(]*?\b(tcs\w+)\s*\(([^)]*)\)", HEADER, re.S)
    return {name: 0 if args.strip() in ("", "void") else len(args.split(",")) for name, args in found}


def header_constants():
    """{name: value} for every enumerator and #define alias or number of tcsparse.h."""
    constants = {n: int(v) for n, v in re.findall(r"^\s*(TCS_[A-Z0-9_]+)\s*=\s*(-?\d+)", HEADER, re.M)}
    for name, value in re.findall(r"^#define\s+(TCS_[A-Z0-9_]+)\s+(\w+)\s*$", HEADER, re.M):
        constants[name] = int(value) if value.isdigit() else constants[value]
    return constants


def registry_symbols():
    lines = (ROOT / "docs" / "symbols.txt").read_text().splitlines()
    return [line.split()[0] for line in lines if line.strip() and not line.startswith("#")]


def gpu_present():
    """True or False from the CUDA runtime, None when no runtime can be loaded."""
    try:
        return tcs.cuda_runtime().device_count() > 0
    except OSError:
        return None


class LoadAndVersion(unittest.TestCase):
    def setUp(self):
        self.lib = tcs.load()

    def test_version_is_the_headers(self):
        c = header_constants()
        expected = c["TCS_VERSION_MAJOR"] * 10000 + c["TCS_VERSION_MINOR"] * 100 + c["TCS_VERSION_PATCH"]
        self.assertEqual(self.lib.version, expected)
        self.assertEqual(self.lib.version // 10000, tcs.EXPECTED_MAJOR)

    def test_properties_agree_with_version(self):
        parts = []
        for prop in (tcs.MAJOR_VERSION, tcs.MINOR_VERSION, tcs.PATCH_LEVEL):
            value = ctypes.c_int(-1)
            self.lib.tcsGetProperty(prop, ctypes.byref(value))
            parts.append(value.value)
        self.assertEqual(parts[0] * 10000 + parts[1] * 100 + parts[2], self.lib.version)

    def test_another_major_version_is_refused(self):
        tcs.check_version(self.lib.version)
        with self.assertRaises(tcs.VersionMismatchError):
            tcs.check_version((tcs.EXPECTED_MAJOR + 1) * 10000)

    def _load_in_child(self, env):
        code = "from tcsparse import _capi as t; lib = t.load(); print(lib.path, lib.version)"
        env = dict(env, PYTHONPATH=str(ROOT / "python"))
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)

    def test_loads_by_soname_from_ld_library_path(self):
        # The loader reads LD_LIBRARY_PATH when the process starts: hence a child.
        env = {k: v for k, v in os.environ.items() if k != "TCSPARSE_LIBRARY"}
        env["LD_LIBRARY_PATH"] = os.path.dirname(os.path.abspath(self.lib.path))
        result = self._load_in_child(env)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.split(), [tcs.SONAME, str(self.lib.version)])

    def test_missing_library_says_how_to_point_at_it(self):
        env = dict(os.environ, TCSPARSE_LIBRARY="/nonexistent/libtcsparse.so.0")
        result = self._load_in_child(env)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("TCSPARSE_LIBRARY", result.stderr)


class Errors(unittest.TestCase):
    def setUp(self):
        self.lib = tcs.load()

    def test_every_status_has_its_name_and_a_sentence(self):
        for status in tcs.Status:
            self.assertEqual(self.lib.error_name(status), status.name)
            self.assertGreater(len(self.lib.error_string(status)), 10)
        self.assertEqual(self.lib.error_name(len(tcs.Status)), "TCS_STATUS_UNKNOWN")
        self.assertEqual(self.lib.error_string(-1), "unknown status")

    def test_null_output_is_invalid_value(self):
        with self.assertRaises(tcs.TcsError) as caught:
            self.lib.tcsCreateCsr(None, 2, 2, 0, None, None, None, tcs.TCS_INDEX_32I,
                                  tcs.TCS_INDEX_32I, tcs.TCS_INDEX_BASE_ZERO, tcs.CUDA_R_32F)
        error = caught.exception
        self.assertEqual(error.status, tcs.TCS_STATUS_INVALID_VALUE)
        self.assertEqual(error.function, "tcsCreateCsr")
        self.assertIn("TCS_STATUS_INVALID_VALUE", str(error))

    def test_enum_out_of_range_is_invalid_value(self):
        descr = ctypes.c_void_p()
        with self.assertRaises(tcs.TcsError) as caught:
            self.lib.tcsCreateCsr(ctypes.byref(descr), 2, 2, 0, None, None, None, tcs.TCS_INDEX_32I,
                                  tcs.TCS_INDEX_32I, 7, tcs.CUDA_R_32F)
        self.assertEqual(caught.exception.status, tcs.TCS_STATUS_INVALID_VALUE)
        self.assertIsNone(descr.value)

    def test_create_without_gpu_is_not_initialized(self):
        handle = ctypes.c_void_p(12345)  # must be overwritten either way
        present = gpu_present()
        try:
            self.lib.tcsCreate(ctypes.byref(handle))
        except tcs.TcsError as error:
            self.assertNotEqual(present, True, "tcsCreate failed although the runtime sees a GPU")
            self.assertEqual(error.status, tcs.TCS_STATUS_NOT_INITIALIZED)
            self.assertIsNone(handle.value)
        else:
            self.assertNotEqual(present, False, "tcsCreate succeeded although there is no GPU")
            self.assertIsNotNone(handle.value)
            self.lib.tcsDestroy(handle)

    def test_spgemm_descriptor_before_work_estimation(self):
        descr = ctypes.c_void_p()
        self.lib.tcsSpGEMM_createDescr(ctypes.byref(descr))
        try:
            with self.assertRaises(tcs.TcsError) as caught:
                self.lib.tcsSpGEMM_getNumProducts(descr, ctypes.byref(ctypes.c_int64()))
            self.assertEqual(caught.exception.status, tcs.TCS_STATUS_NOT_INITIALIZED)
        finally:
            self.lib.tcsSpGEMM_destroyDescr(descr)


class Descriptors(unittest.TestCase):
    """Descriptors store pointers only, so host addresses stand in for device arrays.
    Sizes beyond 2**32 check that int64 arguments are passed whole."""

    def setUp(self):
        self.lib = tcs.load()
        self.arrays = (ctypes.c_int64 * 8)()
        self.base = ctypes.addressof(self.arrays)

    def test_csr_round_trip(self):
        lib, big = self.lib, 3 * 2**32
        descr = ctypes.c_void_p()
        lib.tcsCreateCsr(ctypes.byref(descr), 3, big, 5, self.base, self.base + 16, self.base + 32,
                         tcs.TCS_INDEX_64I, tcs.TCS_INDEX_64I, tcs.TCS_INDEX_BASE_ONE, tcs.CUDA_R_64F)
        try:
            sizes = [ctypes.c_int64() for _ in range(3)]
            pointers = [ctypes.c_void_p() for _ in range(3)]
            enums = [ctypes.c_int() for _ in range(4)]
            lib.tcsCsrGet(descr, *map(ctypes.byref, sizes + pointers + enums))
            self.assertEqual([s.value for s in sizes], [3, big, 5])
            self.assertEqual([p.value for p in pointers], [self.base, self.base + 16, self.base + 32])
            self.assertEqual([e.value for e in enums], [tcs.TCS_INDEX_64I, tcs.TCS_INDEX_64I,
                                                        tcs.TCS_INDEX_BASE_ONE, tcs.CUDA_R_64F])
            fmt = ctypes.c_int()
            lib.tcsSpMatGetFormat(descr, ctypes.byref(fmt))
            self.assertEqual(fmt.value, tcs.TCS_FORMAT_CSR)
            lib.tcsSpMatSetValues(descr, self.base + 8)
            values = ctypes.c_void_p()
            lib.tcsSpMatGetValues(descr, ctypes.byref(values))
            self.assertEqual(values.value, self.base + 8)
        finally:
            lib.tcsDestroySpMat(descr)

    def test_dense_round_trip_and_leading_dimension(self):
        lib, big = self.lib, 2**33
        descr = ctypes.c_void_p()
        lib.tcsCreateDnMat(ctypes.byref(descr), big, 2, big + 4, self.base, tcs.CUDA_R_32F, tcs.TCS_ORDER_COL)
        try:
            sizes = [ctypes.c_int64() for _ in range(3)]
            values, value_type, order = ctypes.c_void_p(), ctypes.c_int(), ctypes.c_int()
            lib.tcsDnMatGet(descr, *map(ctypes.byref, sizes + [values, value_type, order]))
            self.assertEqual([s.value for s in sizes], [big, 2, big + 4])
            self.assertEqual((values.value, value_type.value, order.value),
                             (self.base, tcs.CUDA_R_32F, tcs.TCS_ORDER_COL))
        finally:
            lib.tcsDestroyDnMat(descr)
        with self.assertRaises(tcs.TcsError) as caught:
            lib.tcsCreateDnMat(ctypes.byref(descr), 4, 3, 2, self.base, tcs.CUDA_R_32F, tcs.TCS_ORDER_ROW)
        self.assertEqual(caught.exception.status, tcs.TCS_STATUS_INVALID_VALUE)


class MatchesTheCApi(unittest.TestCase):
    def test_every_exported_function_is_declared_with_its_argument_count(self):
        prototypes = header_prototypes()
        self.assertEqual(sorted(tcs.PROTOTYPES), sorted(registry_symbols()))
        self.assertEqual(sorted(tcs.PROTOTYPES), sorted(prototypes))
        for name, codes in tcs.PROTOTYPES.items():
            self.assertEqual(len(codes), prototypes[name], name)

    def test_enum_values_equal_the_headers(self):
        constants = header_constants()
        module_constants = {name: member for enum in tcs.ENUMS
                            for name, member in enum.__members__.items() if name.startswith("TCS_")}
        self.assertEqual(sorted(module_constants),
                         sorted(n for n in constants if not n.startswith("TCS_VERSION")))
        for name, member in module_constants.items():
            self.assertEqual(int(member), constants[name], name)

    def test_data_types_equal_library_types_h(self):
        include = os.environ.get("TCS_CUDA_INCLUDE_DIR")
        if not include:
            self.skipTest("TCS_CUDA_INCLUDE_DIR is not set")
        text = (pathlib.Path(include) / "library_types.h").read_text()
        for member in tcs.DataType:
            value = re.search(r"\b%s\s*=\s*(\d+)" % member.name, text)
            self.assertIsNotNone(value, member.name)
            self.assertEqual(int(value.group(1)), member, member.name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
