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
//   stats | row offsets (m+1, 64-bit; products per row until the scan) | rows by symbolic bin (m)
//   | rows to retry after the first guess (m, when a row can need a large table) | scan
//   scratch | wide-row bitmaps, only when a bitmap over C's columns cannot fit in
//   shared memory and some row could be too long for the shared tables (a few blocks of
//   ceil(n/32) words each, bounded by kScratchBudget).
// buffer2 (exact, known after the read-back):
//   bin cursors | rows by numeric bin (m) | wide-row scratch when some row has more
//   entries than the largest shared table holds (per block: bitmap and word ranks over
//   C's columns, the row's accumulators and their marks).
// So both buffers are O(m) plus bounded scratch: C itself is never stored twice.
//
// Under a memory budget (set_chunks, chunk_fraction f < 1) compute and copy take C's rows
// in chunks of R = ceil(f*m) rows (at least 8, at most 1024 chunks), each binned and
// multiplied on its own: buffer2 then holds the rows per (chunk, numeric bin) | bin
// cursors | rows by numeric bin (R) | wide-row scratch with f times the blocks (at least
// one). A row is computed by the same kernel, in the same order, in any chunk: C is
// bitwise the same. estimateMemory's buffer3 holds those counts while they are read
// back (once).
#include "core/error.hpp"
#include "core/workspace.hpp"
#include "formats/empty_csr.cuh"
#include "spgemm/hash/launch.hpp"
#include "spgemm/hash/rules.hpp"
#include "spgemm/plan.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tcs::spgemm {
namespace {

using namespace hash;

// In 64 bits: m + rows - 1 passes int for m near 2^31 (at most m chunks, which fits).
int chunks_of(int m, int rows) {
    return rows > 0 ? int((std::int64_t(m) + rows - 1) / rows) : 1;
}

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
    check_cuda(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<offset_t*>(nullptr),
                                             static_cast<offset_t*>(nullptr), items),
               "hash SpGEMM: scan size");
    return bytes;
}

struct buffer1 {
    stats* st = nullptr;
    offset_t* row_off = nullptr;
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
    b.row_off = cv.take<offset_t>(std::size_t(m) + 1);
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

// The numeric pass's rows: all of them, or chunks of `rows` rows with the rows per
// (chunk, numeric bin) in counts (host, read back by set_chunks).
struct chunking {
    int rows = 0;  // 0: no chunks
    int chunks = 1;
    double fraction = 1.0;
    std::vector<int> counts;

    bool on() const { return rows > 0; }
};

template <class V>
struct buffer2 {
    int* chunk_counts = nullptr;  // chunks * kMaxBins, under a budget
    int* cursors = nullptr;
    int* perm = nullptr;
    wide_scratch<V> wide;
    std::size_t bytes = 0;
};

template <class V>
buffer2<V> carve2(const problem& p, const stats& host, std::int64_t nnz_c, const chunking& ch,
                  void* base) {
    buffer2<V> b;
    carver cv(base);
    const int m = int(p.a.rows), n = int(p.b.cols);
    const bin_plan num = numeric_bins(*p.device, p.compute);
    int wide_rows = host.numeric_count[num.count - 1];
    if (ch.on()) {
        b.chunk_counts = cv.take<int>(std::size_t(ch.chunks) * kMaxBins);
        wide_rows = 0;
        for (int c = 0; c < ch.chunks; ++c)
            wide_rows = std::max(wide_rows, ch.counts[std::size_t(c) * kMaxBins + num.count - 1]);
    }
    b.cursors = cv.take<int>(kMaxBins);
    b.perm = cv.take<int>(std::size_t(ch.on() ? ch.rows : m));
    if (wide_rows > 0) {
        const std::size_t words = std::size_t(wide_bitmap_words(n));
        const std::size_t longest = std::size_t(host.max_row_nnz);
        const std::size_t per_block = words * 8 + longest * (sizeof(V) + 4);
        const std::size_t budget =
            std::max(kScratchBudget, std::size_t(nnz_c) * (4 + sizeof(V)) / 2);
        b.wide.blocks = int(std::clamp<std::size_t>(
            budget / per_block, 1, std::size_t(std::min(wide_rows, p.device->sm_count))));
        if (ch.on()) b.wide.blocks = std::max(1, int(double(b.wide.blocks) * ch.fraction));
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

// Rows [r0, r0 + rows) of A as an m = rows problem: A's offsets from row r0 on (they
// still index A's whole arrays), so every kernel runs on a chunk unchanged.
operands rows_of(operands x, int r0, int rows) {
    x.a_rp = x.a_rp.from(r0);
    x.m = rows;
    return x;
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
        chunks_ = chunking{};
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
        if (read.row_overflow != 0)
            fail(errc::insufficient_resources, "SpGEMM: a row of C has 2^31 or more products");
        host_ = read;
    }

    std::int64_t num_products() const override { return std::int64_t(host_.products); }
    std::int64_t nnz_c() const override { return std::int64_t(host_.nnz); }

    std::size_t buffer3_size(const problem& p, double f) override {
        const int m = int(p.a.rows), rows = chunk_rows_of(m, f);
        return rows < m ? std::size_t(chunks_of(m, rows)) * kMaxBins * sizeof(int) : 0;
    }

    void set_chunks(const problem& p, double f, void* b1, void* b3) override {
        chunks_ = chunking{};
        const int m = int(p.a.rows), rows = chunk_rows_of(m, f);
        if (rows >= m) return;
        chunking ch;
        ch.rows = rows;
        ch.chunks = chunks_of(m, rows);
        ch.fraction = double(rows) / double(m);
        ch.counts.assign(std::size_t(ch.chunks) * kMaxBins, 0);
        const launch_context lc = context_of(p);
        int* counts = static_cast<int*>(b3);
        check_cuda(cudaMemsetAsync(counts, 0, ch.counts.size() * sizeof(int), lc.stream),
                   "hash SpGEMM: clear chunk counts");
        count_chunk_bins(m, rows, numeric_bins(*p.device, p.compute).thresholds(),
                         carve1(p, b1).row_off, counts, lc);
        check_cuda(cudaMemcpyAsync(ch.counts.data(), counts, ch.counts.size() * sizeof(int),
                                   cudaMemcpyDeviceToHost, lc.stream),
                   "hash SpGEMM: read chunk counts");
        check_cuda(cudaStreamSynchronize(lc.stream), "hash SpGEMM: chunk counts");
        chunks_ = std::move(ch);
    }

    std::size_t buffer2_size(const problem& p) override {
        return p.compute == value_type::f64 ? carve2<double>(p, host_, nnz_c(), chunks_, nullptr).bytes
                                            : carve2<float>(p, host_, nnz_c(), chunks_, nullptr).bytes;
    }

    void compute(const problem& p, void* b1, void* b2) override {
        if (p.a.rows == 0) return;
        const launch_context lc = context_of(p);
        const buffer1 one = carve1(p, b1);
        // The numeric binning does not depend on the value type: carve as float.
        const buffer2<float> two = carve2<float>(p, host_, nnz_c(), chunks_, b2);
        const bin_plan num = numeric_bins(*p.device, p.compute);
        if (chunks_.on()) {
            // Each chunk is binned by copy, into the one chunk-sized perm.
            check_cuda(cudaMemsetAsync(two.chunk_counts, 0, chunks_.counts.size() * sizeof(int), lc.stream),
                       "hash SpGEMM: clear chunk counts");
            count_chunk_bins(int(p.a.rows), chunks_.rows, num.thresholds(), one.row_off,
                             two.chunk_counts, lc);
            return;
        }
        check_cuda(cudaMemsetAsync(two.cursors, 0, kMaxBins * sizeof(int), lc.stream),
                   "hash SpGEMM: clear cursors");
        bin_by_nnz(operands_of(p), num.thresholds(), one.st, &one.st->numeric_count[0], one.row_off,
                   two.cursors, two.perm, lc);
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
            if (c.row_ptr != nullptr) formats::write_empty_offsets(index_out(c.row_ptr, c.offsets), c.base, lc.stream);
            return;
        }
        const buffer1 one = carve1(p, b1);
        const buffer2<V> two = carve2<V>(p, host_, nnz_c(), chunks_, b2);
        const operands x = operands_of(p);
        const bin_plan num = numeric_bins(*p.device, p.compute);
        numeric_job<V> job;
        job.values.a = static_cast<const V*>(p.a.values);
        job.values.b = static_cast<const V*>(p.b.values);
        job.device_counts = &one.st->numeric_count[0];
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
        if (!chunks_.on()) {
            numeric<V>(x, num, job, lc);
            return;
        }
        // C's columns and values are placed by the global row offsets; only the rows'
        // own arrays (A's offsets, C's offsets, the bins) start at the chunk.
        const index_out rp = job.c.rp;
        for (int k = 0; k < chunks_.chunks; ++k) {
            const int r0 = k * chunks_.rows, rows = std::min(chunks_.rows, x.m - r0);
            const operands xk = rows_of(x, r0, rows);
            const int* counts = two.chunk_counts + std::size_t(k) * kMaxBins;
            check_cuda(cudaMemsetAsync(two.cursors, 0, kMaxBins * sizeof(int), lc.stream),
                       "hash SpGEMM: clear cursors");
            bin_by_nnz(xk, num.thresholds(), one.st, counts, one.row_off + r0, two.cursors,
                       two.perm, lc);
            job.device_counts = counts;
            job.counts = &chunks_.counts[std::size_t(k) * kMaxBins];
            job.row_off = one.row_off + r0;
            job.c.rp = rp.from(r0);
            job.write_last = k == chunks_.chunks - 1;
            numeric<V>(xk, num, job, lc);
        }
    }

    stats host_{};      // the counters read back by work_estimation
    chunking chunks_;   // the budget set by set_chunks
};

}  // namespace

std::unique_ptr<plan> make_hash_plan() { return std::make_unique<hash_plan>(); }

}  // namespace tcs::spgemm
