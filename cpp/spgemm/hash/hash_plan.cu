// The hash SpGEMM plan (nsparse family): the stages, what each buffer holds, and the
// one read-back.
//
//   workEstimation  products per row -> rows grouped by products -> symbolic pass (nnz
//                   per row of C) -> exclusive scan into C's row offsets; then one
//                   cudaMemcpyAsync + cudaStreamSynchronize reads the counters (products,
//                   nnz(C), the longest row, rows per numeric bin).
//   compute         rows grouped by nnz (numeric bins).
//   copy            the numeric pass, straight into C's arrays.
//
// buffer1 (sized from A's and B's dimensions alone, no GPU work):
//   stats | row offsets (m+1; products per row until the scan) | rows by symbolic bin (m)
//   | rows to retry after the first guess (m, when a row can need a large table) | scan
//   scratch | wide-row bitmaps, only when a bitmap over C's columns cannot fit in
//   shared memory and some row could be too long for the shared tables (a few blocks of
//   ceil(n/32) words each, bounded by kScratchBudget).
// buffer2 (exact, known after the read-back):
//   bin cursors | rows by numeric bin (m) | wide-row scratch when some row has more
//   entries than the largest shared table holds (per block: bitmap and word ranks over
//   C's columns, the row's accumulators and their marks).
// So both buffers are O(m) plus bounded scratch: C itself is never stored twice.
#include "core/error.hpp"
#include "core/workspace.hpp"
#include "spgemm/hash/launch.hpp"
#include "spgemm/plan.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tcs::spgemm {
namespace {

using namespace hash;

// Scratch for wide rows may take this much, or more when the inputs (symbolic) or C
// (numeric) are larger: then it stays a fraction of memory the caller holds anyway.
constexpr std::size_t kScratchBudget = std::size_t(64) << 20;

// The sizes the kernels index with 32-bit integers.
void check_dimensions(const problem& p) {
    if (p.a.rows >= INT_MAX || p.a.cols > INT_MAX || p.b.cols > INT_MAX || p.a.nnz > INT_MAX ||
        p.b.nnz > INT_MAX)
        fail(errc::insufficient_resources, "SpGEMM: a dimension exceeds 32-bit indices");
}

operands operands_of(const problem& p) {
    operands x;
    x.a_rp = index_in(p.a.row_ptr, p.a.offsets);
    x.a_ci = index_in(p.a.col_idx, p.a.columns);
    x.b_rp = index_in(p.b.row_ptr, p.b.offsets);
    x.b_ci = index_in(p.b.col_idx, p.b.columns);
    x.a_base = p.a.base;
    x.b_base = p.b.base;
    x.m = int(p.a.rows);
    x.n = int(p.b.cols);
    x.k = int(p.a.cols);
    x.nnz_a = int(p.a.nnz);
    x.nnz_b = int(p.b.nnz);
    return x;
}

launch_context context_of(const problem& p) { return {p.stream, p.device}; }

std::size_t scan_bytes(int items) {
    std::size_t bytes = 0;
    check_cuda(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<int*>(nullptr),
                                             static_cast<int*>(nullptr), items),
               "hash SpGEMM: scan size");
    return bytes;
}

struct buffer1 {
    stats* st = nullptr;
    int* row_off = nullptr;
    int* perm = nullptr;
    int* retry = nullptr;
    void* scan = nullptr;
    std::size_t scan_size = 0;
    symbolic_scratch wide;
    std::size_t bytes = 0;
};

// The same carving sizes the buffer (base == nullptr) and lays it out.
buffer1 carve1(const problem& p, void* base) {
    buffer1 b;
    carver cv(base);
    const int m = int(p.a.rows), n = int(p.b.cols);
    b.st = cv.take<stats>(1);
    b.row_off = cv.take<int>(std::size_t(m) + 1);
    b.perm = cv.take<int>(std::size_t(m));
    const bin_plan sym = symbolic_bins(*p.device);
    const symbolic_reach reach = symbolic_reach_of(sym, n, int(p.b.nnz));
    if (reach.retries()) b.retry = cv.take<int>(std::size_t(m));
    b.scan_size = scan_bytes(m + 1);
    b.scan = cv.take<unsigned char>(b.scan_size);
    const bool wide_possible = reach.end == sym.count;  // the last bin is the wide one
    if (m > 0 && wide_possible && !wide_bitmap_fits_shared(n, *p.device)) {
        const std::size_t per_block = std::size_t(wide_bitmap_words(n)) * 4;
        const std::size_t budget =
            std::max(kScratchBudget, std::size_t(p.a.nnz + p.b.nnz) * 8);
        b.wide.blocks = int(std::clamp<std::size_t>(budget / per_block, 1, std::size_t(p.device->sm_count)));
        b.wide.bits = cv.take<unsigned>(std::size_t(b.wide.blocks) * wide_bitmap_words(n));
    }
    b.bytes = cv.bytes();
    return b;
}

template <class V>
struct buffer2 {
    int* cursors = nullptr;
    int* perm = nullptr;
    wide_scratch<V> wide;
    std::size_t bytes = 0;
};

template <class V>
buffer2<V> carve2(const problem& p, const stats& host, std::int64_t nnz_c, void* base) {
    buffer2<V> b;
    carver cv(base);
    const int m = int(p.a.rows), n = int(p.b.cols);
    b.cursors = cv.take<int>(kMaxBins);
    b.perm = cv.take<int>(std::size_t(m));
    const bin_plan num = numeric_bins(*p.device, p.compute);
    const int wide_rows = host.numeric_count[num.count - 1];
    if (wide_rows > 0) {
        const std::size_t words = std::size_t(wide_bitmap_words(n));
        const std::size_t longest = std::size_t(host.max_row_nnz);
        const std::size_t per_block = words * 8 + longest * (sizeof(V) + 4);
        const std::size_t budget =
            std::max(kScratchBudget, std::size_t(nnz_c) * (4 + sizeof(V)) / 2);
        b.wide.blocks = int(std::clamp<std::size_t>(
            budget / per_block, 1, std::size_t(std::min(wide_rows, p.device->sm_count))));
        b.wide.max_nnz = host.max_row_nnz;
        const std::size_t blocks = std::size_t(b.wide.blocks);
        b.wide.bits = cv.take<unsigned>(blocks * words);
        b.wide.first = cv.take<int>(blocks * words);
        b.wide.vals = cv.take<V>(blocks * longest);
        b.wide.marks = cv.take<unsigned>(blocks * longest);
    }
    b.bytes = cv.bytes();
    return b;
}

class hash_plan final : public plan {
public:
    std::size_t buffer1_size(const problem& p) override {
        check_dimensions(p);
        return carve1(p, nullptr).bytes;
    }

    void work_estimation(const problem& p, void* buffer) override {
        check_dimensions(p);
        host_ = stats{};
        const operands x = operands_of(p);
        if (x.m == 0) return;  // C has no rows: nothing to count
        const launch_context lc = context_of(p);
        const buffer1 b = carve1(p, buffer);
        const bin_plan sym = symbolic_bins(*p.device);
        const bin_plan num = numeric_bins(*p.device, p.compute);
        check_cuda(cudaMemsetAsync(b.st, 0, sizeof(stats), lc.stream), "hash SpGEMM: clear counters");
        count_products(x, sym.thresholds(), p.a.nnz, b.st, b.row_off, lc);
        bin_by_products(x, sym.thresholds(), b.st, b.row_off, b.perm, lc);
        symbolic(x, sym, num.thresholds(), b.st, b.perm, b.retry, b.row_off, b.wide, lc);
        std::size_t scan_size = b.scan_size;
        check_cuda(cub::DeviceScan::ExclusiveSum(b.scan, scan_size, b.row_off, b.row_off, x.m + 1,
                                                 lc.stream),
                   "hash SpGEMM: row offsets");
        stats read{};
        check_cuda(cudaMemcpyAsync(&read, b.st, sizeof(stats), cudaMemcpyDeviceToHost, lc.stream),
                   "hash SpGEMM: read counters");
        check_cuda(cudaStreamSynchronize(lc.stream), "hash SpGEMM: work estimation");
        if (read.products >= kProductLimit)
            fail(errc::insufficient_resources, "SpGEMM: 2^31 or more products");
        host_ = read;
    }

    std::int64_t num_products() const override { return std::int64_t(host_.products); }
    std::int64_t nnz_c() const override { return std::int64_t(host_.nnz); }

    std::size_t buffer2_size(const problem& p) override {
        return p.compute == value_type::f64 ? carve2<double>(p, host_, nnz_c(), nullptr).bytes
                                            : carve2<float>(p, host_, nnz_c(), nullptr).bytes;
    }

    void compute(const problem& p, void* b1, void* b2) override {
        if (p.a.rows == 0) return;
        const launch_context lc = context_of(p);
        const buffer1 one = carve1(p, b1);
        // The numeric binning does not depend on the value type: carve as float.
        const buffer2<float> two = carve2<float>(p, host_, nnz_c(), b2);
        check_cuda(cudaMemsetAsync(two.cursors, 0, kMaxBins * sizeof(int), lc.stream),
                   "hash SpGEMM: clear cursors");
        const bin_plan num = numeric_bins(*p.device, p.compute);
        bin_by_nnz(operands_of(p), num.thresholds(), one.st, one.row_off, two.cursors, two.perm, lc);
    }

    void copy(const problem& p, void* b1, void* b2, const scalar_arg& alpha, const scalar_arg& beta,
              const csr_out& c) override {
        if (p.compute == value_type::f64)
            copy_as<double>(p, b1, b2, alpha, beta, c);
        else
            copy_as<float>(p, b1, b2, alpha, beta, c);
    }

private:
    template <class V>
    void copy_as(const problem& p, void* b1, void* b2, const scalar_arg& alpha,
                 const scalar_arg& beta, const csr_out& c) {
        const launch_context lc = context_of(p);
        if (p.a.rows == 0) {
            if (c.row_ptr != nullptr) write_empty_offsets(index_out(c.row_ptr, c.offsets), c.base, lc);
            return;
        }
        const buffer1 one = carve1(p, b1);
        const buffer2<V> two = carve2<V>(p, host_, nnz_c(), b2);
        numeric_job<V> job;
        job.values.a = static_cast<const V*>(p.a.values);
        job.values.b = static_cast<const V*>(p.b.values);
        job.st = one.st;
        job.counts = host_.numeric_count;
        job.perm = two.perm;
        job.row_off = one.row_off;
        job.nnz_c = nnz_c();
        job.c.rp = index_out(c.row_ptr, c.offsets);
        job.c.ci = index_out(c.col_idx, c.columns);
        job.c.val = static_cast<V*>(c.values);
        job.c.base = c.base;
        job.alpha = alpha.as<V>();
        job.beta = beta.as<V>();
        job.wide = two.wide;
        numeric<V>(operands_of(p), numeric_bins(*p.device, p.compute), job, lc);
    }

    stats host_{};  // the counters read back by work_estimation
};

}  // namespace

std::unique_ptr<plan> make_hash_plan() { return std::make_unique<hash_plan>(); }

}  // namespace tcs::spgemm
