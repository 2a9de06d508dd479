#!/usr/bin/env python3
"""Test of scripts/perf_report.py on sample_bench.json, a hand-made benchmark output
(not a measurement) whose expected ratios are worked out below.

    test_perf_report.py [path/to/perf_report.py] [output directory]
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample_bench.json")
SCRIPT = os.path.join(HERE, os.pardir, os.pardir, "scripts", "perf_report.py")
OUT = None


def load_module(path):
    spec = importlib.util.spec_from_file_location("perf_report", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row_of(text, matrix, n=None):
    """The cells of the table row of `matrix` (and n, for SpMM) in a markdown text."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == f"`{matrix}`" and (n is None or cells[1] == str(n)):
            return cells
    raise AssertionError(f"no row for {matrix} (n={n})")


class Functions(unittest.TestCase):
    def setUp(self):
        self.m = load_module(SCRIPT)

    def test_roofline_blocky_set_and_bars(self):
        def bench(name, **counters):
            return {"name": name + "/iterations:3/manual_time", "run_type": "iteration", **counters}
        blocky = dict(mean_row=30.0, tile_density=20.0)
        rows = []
        # Four blocky matrices (the smallest, b0, drops out of the three largest) and one
        # graph; the tile TC numeric phase at 2, 4, 8 times its floor on the three largest.
        for m, nnz, ratio in (("b0", 1e5, 99.0), ("b1", 4e6, 2.0), ("b2", 3e6, 4.0), ("b3", 2e6, 8.0)):
            rows.append(bench(f"spgemm_numeric/fp64/{m}/tcsparse_tile_tc", ms=ratio, roof_ms=1.0,
                              roof_ratio=ratio, roof_bytes=2e6, roof_flops=1e9, roof_bytes_ms=1.0,
                              roof_mma_ms=0.1, nnz_a=nnz, **blocky))
            rows.append(bench(f"spmm_blocks/fp16/row/n128/{m}/blocks", ms=1.5, roof_ratio=1.5, nnz_a=nnz))
        rows.append(bench("spgemm_numeric/fp64/graph/tcsparse_hash", ms=3.0, roof_ratio=30.0,
                          nnz_a=9e6, mean_row=5.0, tile_density=1.2))
        context = {"dmma_f64_TFLOPS": "60.0"}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "roof.json")
            with open(path, "w") as f:
                json.dump({"context": context, "benchmarks": rows}, f)
            ctx, results = self.m.load([path])
            lines, summary, _ = self.m.roofline_report(results, ctx, [path])
        text = "\n".join(lines)
        self.assertIn("the three largest: `b1`, `b2`, `b3`", text)
        self.assertIn("measured DMMA rate: 60.0 TFLOP/s", text)
        self.assertIn("b1 2.0x, b2 4.0x, b3 8.0x the floor (bar <= 6x)", summary[0])
        self.assertIn("b1 1.5x, b2 1.5x, b3 1.5x the floor (bar <= 2x)", summary[1])
        self.assertNotIn("`graph`", text.split("the three largest")[0].split("Blocky")[-1])

    def test_width_cliff_and_lowest_speedup(self):
        def bench(name, ms):
            return {"name": name + "/iterations:3/manual_time", "run_type": "iteration", "ms": ms}
        # tcsparse: n = 8 takes 1.0, n = 33 takes 1.5, n = 128 takes 1.2 (n = 33 is 1.25x
        # the wider n = 128: the cliff); cuSPARSE 2.0 everywhere but 1.2 at n = 128.
        rows = []
        for n, tc, cu in ((8, 1.0, 2.0), (33, 1.5, 2.0), (128, 1.2, 1.2)):
            rows.append(bench(f"spmm_width/fp32/row/n{n}/band/tcsparse", tc))
            rows.append(bench(f"spmm_width/fp32/row/n{n}/band/cusparse", cu))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "width.json")
            with open(path, "w") as f:
                json.dump({"context": {}, "benchmarks": rows}, f)
            ctx, results = self.m.load([path])
            lines, summary, _ = self.m.width_report(results, ctx, [path])
        text = "\n".join(lines)
        self.assertIn("## `band`, fp32, row-major", text)
        self.assertIn("| 33 | 1.5 | 2 | 1.33x | 1.25 |", text)
        self.assertIn("| 8 | 1 | 2 | 2.00x | 0.83 |", text)
        self.assertIn("worst time(n)/time(wider) 1.25 at n=33", summary[0])
        self.assertIn("lowest speedup 1.00x at n=128", summary[0])

    def test_base_name_drops_google_benchmark_suffixes(self):
        self.assertEqual(self.m.base_name("spgemm/fp32/a-b_c/tcsparse/iterations:5/manual_time"),
                         "spgemm/fp32/a-b_c/tcsparse")
        self.assertEqual(self.m.base_name("spmm/fp64/row/n32/m/cusparse/repeats:3/threads:1"),
                         "spmm/fp64/row/n32/m/cusparse")

    def test_geomean_ignores_missing_values(self):
        self.assertAlmostEqual(self.m.geomean([2.0, None, 8.0]), 4.0)
        self.assertIsNone(self.m.geomean([None]))

    def test_best_threshold(self):
        # Row-split wins on long rows (40), merge on short ones (10): tau = 40 is exact.
        tau, loss = self.m.best_threshold([(10, 2.0, 1.0), (40, 1.0, 3.0)])
        self.assertEqual(tau, 40)
        self.assertAlmostEqual(loss, 1.0)
        # Merge always wins: no threshold below infinity is as good.
        tau, loss = self.m.best_threshold([(10, 2.0, 1.0), (40, 3.0, 1.0)])
        self.assertEqual(tau, float("inf"))


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = OUT or tempfile.mkdtemp(prefix="perf_report_")
        cls.proc = subprocess.run([sys.executable, SCRIPT, SAMPLE, "--out", cls.out],
                                 capture_output=True, text=True)

    def read(self, name):
        with open(os.path.join(self.out, name)) as f:
            return f.read()

    def test_exit_and_summary(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertIn("geomean SpGEMM fp32: speedup 4.00x, memory ratio 0.250", self.proc.stdout)
        self.assertIn("geomean SpMM fp32 row-major n=8: speedup 1.41x over 2 matrices",
                      self.proc.stdout)

    def test_spgemm_pairs_ratios_and_errors(self):
        text = self.read("spgemm.md")
        # mA: cuSPARSE 4 ms / tcsparse 2 ms; peak 50 MB / 100 MB; ALG2 60 MB.
        cells = row_of(text.split("## fp64")[0], "mA")
        self.assertEqual(cells[1:4], ["1,000,000", "5,000,000", "100,000,000"])
        self.assertEqual(cells[4:6], ["2.000", "4.000"])
        self.assertEqual(cells[8], "2.00x")
        self.assertEqual(cells[9:13], ["50.0", "100.0", "0.500", "60.0"])
        # mB: 8x faster with an eighth of the memory; geomeans 4x and 0.25.
        self.assertEqual(row_of(text, "mB")[8], "8.00x")
        self.assertIn("speedup 4.00x, memory ratio 0.250 (tcsparse/cuSPARSE) over 2 matrices", text)
        # fp64 mA: tcsparse reported an error, so no ratio, and the error is listed.
        fp64 = text.split("## fp64")[1]
        self.assertEqual(row_of(fp64, "mA")[8], "—")
        self.assertIn("`spgemm/fp64/mA/tcsparse`: tcsSpGEMM_workEstimation returned "
                      "TCS_STATUS_NOT_SUPPORTED", text)
        self.assertIn("hand-made test data", text)

    def test_spmm_medians_of_repetitions_and_aggregates(self):
        text = self.read("spmm.md")
        cells = row_of(text, "mA", 8)
        self.assertEqual(cells[3:5], ["0.01", "0.02"])     # ms
        self.assertEqual(cells[7:10], ["2.00x", "1.50", "3.00"])
        # mB n=8: two repetitions (10 us and 30 us) -> their median, 20 us: 1.00x.
        self.assertEqual(row_of(text, "mB", 8)[3], "0.02")
        self.assertEqual(row_of(text, "mB", 8)[7], "1.00x")
        # mA n=32: the median aggregate (50 us against 100 us), not the mean.
        self.assertEqual(row_of(text, "mA", 32)[3:5], ["0.05", "0.1"])
        self.assertIn("geomean SpMM fp32 row-major n=32: speedup 2.00x over 1 matrix", text)

    def test_sweep_winners_and_rule(self):
        text = self.read("spmm_sweep.md")
        self.assertEqual(row_of(text, "mA")[3:6], ["0.02", "0.01", "merge (2.00x)"])
        self.assertEqual(row_of(text, "mB")[5], "rowsplit (3.00x)")
        self.assertIn("best single rule: rowsplit when mean row length >= 40.0", text)

    def test_blocks_ratios_best_bell_and_rule(self):
        text = self.read("spmm_blocks.md")
        # mA: blocks 0.1 ms; cuSPARSE 1.0; Blocked-ELL best at 32 (0.2 against 0.3 at 16);
        # csr 0.5; preprocess 2 ms / (0.5 - 0.1) = 5 calls; conversion of the best size.
        cells = row_of(text, "mA")
        self.assertEqual(cells[2:4], ["4,000/5,000/4,000", "0.500"])
        self.assertEqual(cells[8], "0.2 (32)")
        self.assertEqual(cells[9:12], ["10.00x", "2.00x", "5.00x"])
        self.assertEqual(cells[12:15], ["2", "5", "80"])
        # mB: the CSR family is faster (no calls amortise), Blocked-ELL failed (listed).
        cells = row_of(text, "mB")
        self.assertEqual(cells[8], "—")
        self.assertEqual(cells[11], "0.50x")
        self.assertEqual(cells[13], "—")
        self.assertIn("`spmm_blocks/fp16/row/n128/mB/cusparse_bell8`: Blocked-ELL", text)
        # geomeans: sqrt(10 * 2) over cuSPARSE; 2 over BELL (mA only); sqrt(5 * 0.5) over
        # csr; and the fill threshold that picks the winner of both matrices.
        self.assertIn("4.47x over cuSPARSE CSR, 2.00x over cuSPARSE Blocked-ELL", text)
        self.assertIn("1.58x over the CSR family", text)
        self.assertIn("best single rule: blocks when fill >= 0.500 (geomean 1.000x", text)

    def test_plots_when_matplotlib_is_there(self):
        has_matplotlib = importlib.util.find_spec("matplotlib") is not None
        for png in ("spgemm_speedup.png", "spmm_speedup.png", "spmm_blocks_speedup.png"):
            path = os.path.join(self.out, png)
            if has_matplotlib:
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            else:
                self.assertFalse(os.path.exists(path))
        if not has_matplotlib:
            self.assertIn("matplotlib is not available", self.proc.stdout)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        SCRIPT = sys.argv.pop(1)
    if len(sys.argv) > 1:
        OUT = sys.argv.pop(1)
        if os.path.isdir(OUT):  # a fresh directory: no plot left over from another run
            for name in os.listdir(OUT):
                os.remove(os.path.join(OUT, name))
    unittest.main(verbosity=2)
