// The tile SpGEMM plan (tSparse family): the stages, what each buffer holds, and the
// one read-back.
//
//   workEstimation  A and B to 8x8 bitmap tiles (structure only, one pass: the tiles,
//                   each panel's range of them and the map from packed position to CSR
//                   entry; once when B is A); the structure pass over C's panels (entries per row of
//                   C, the segments' checkpoints, the counters); C's row offsets by a
//                   scan; then one cudaMemcpyAsync + cudaStreamSynchronize reads the
//                   counters (nnz(C), products, pairs, tiles of C).
//   compute         nothing on the GPU: nnz(C) is known.
//   copy            A's and B's values packed in tile order (one gather each), then the
//                   multiplication, straight into C's arrays.
//
// buffer1 (sized from A's and B's dimensions and nnz alone, no GPU work):
//   counters | tile range per panel (A's and B's) | tile slots (16 bytes each, one per
//   entry: a panel's tiles take the slots of its first entries) | packed position -> CSR entry (nnz(A) + nnz(B) ints) | C's row
//   offsets (m + 1) | checkpoints (panels * (segments - 1)) | scan scratch.
// buffer2 (exact): A's and B's values in tile order (nnz(A) + nnz(B) values of the data
//   type). When B is A (same arrays), B's halves of both buffers are not taken.
#include "core/error.hpp"
#include "core/workspace.hpp"
#include "formats/bitmap_tiles.hpp"
#include "formats/empty_csr.cuh"
#include "spgemm/plan.hpp"
#include "spgemm/tiles/launch.hpp"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tcs::spgemm {
namespace {

using namespace tiles;
using formats::panels_of;

void check_dimensions(const problem& p) {
    if (!tiles_fit(p))
        fail(errc::insufficient_resources, "SpGEMM: a dimension exceeds 32-bit indices");
}

// B is A: one conversion serves both.
bool same_matrix(const csr_view& a, const csr_view& b) {
    return a.row_ptr == b.row_ptr && a.col_idx == b.col_idx && a.values == b.values &&
           a.rows == b.rows && a.cols == b.cols && a.nnz == b.nnz && a.base == b.base &&
           a.type == b.type;
}

std::size_t scan_bytes(int items) {
    std::size_t bytes = 0;
    check_cuda(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<int*>(nullptr),
                                             static_cast<int*>(nullptr), items),
               "tile SpGEMM: scan size");
    return bytes;
}

struct buffer1 {
    bool shared = false;  // B is A
    int a_panels = 0, b_panels = 0;
    stats* st = nullptr;
    formats::tile_range* range = nullptr;  // a_panels (+ b_panels)
    formats::bitmap_tile* tiles = nullptr;
    int* source_a = nullptr;
    int* source_b = nullptr;
    int* row_off = nullptr;
    int segments = 1;
    checkpoint* checkpoints = nullptr;
    void* scan = nullptr;
    std::size_t scan_size = 0;
    std::size_t bytes = 0;

    int ranges() const { return a_panels + b_panels; }
};

// The same carving sizes the buffer (base == nullptr) and lays it out.
buffer1 carve1(const problem& p, void* base) {
    buffer1 b;
    carver cv(base);
    b.shared = same_matrix(p.a, p.b);
    b.a_panels = panels_of(p.a.rows);
    b.b_panels = b.shared ? 0 : panels_of(p.b.rows);
    const std::int64_t tiles = formats::tile_slots(p.a) + (b.shared ? 0 : formats::tile_slots(p.b));
    b.st = cv.take<stats>(1);
    b.range = cv.take<formats::tile_range>(std::size_t(b.ranges()));
    b.tiles = cv.take<formats::bitmap_tile>(std::size_t(tiles));
    b.source_a = cv.take<int>(std::size_t(p.a.nnz));
    b.source_b = b.shared ? b.source_a : cv.take<int>(std::size_t(p.b.nnz));
    b.row_off = cv.take<int>(std::size_t(p.a.rows) + 1);
    b.segments = segments_for(b.a_panels, *p.device);
    b.checkpoints = cv.take<checkpoint>(std::size_t(b.a_panels) * std::size_t(b.segments - 1));
    b.scan_size = scan_bytes(int(p.a.rows) + 1);
    b.scan = cv.take<unsigned char>(b.scan_size);
    b.bytes = cv.bytes();
    return b;
}

struct buffer2 {
    void* values_a = nullptr;
    void* values_b = nullptr;
    std::size_t bytes = 0;
};

buffer2 carve2(const problem& p, bool shared, void* base) {
    buffer2 b;
    carver cv(base);
    const std::size_t vs = size_of(p.a.type);
    b.values_a = cv.take<unsigned char>(std::size_t(p.a.nnz) * vs);
    b.values_b = shared ? b.values_a : cv.take<unsigned char>(std::size_t(p.b.nnz) * vs);
    b.bytes = cv.bytes();
    return b;
}

operands operands_of(const problem& p, const buffer1& b) {
    operands x;
    x.a = {p.a.rows, p.a.cols, b.a_panels, b.range, b.tiles};
    if (b.shared)
        x.b = x.a;
    else
        x.b = {p.b.rows, p.b.cols, b.b_panels, b.range + b.a_panels, b.tiles};
    x.segments = b.segments;
    x.checkpoints = b.checkpoints;
    return x;
}

class bitmap_tile_plan final : public tile_plan {
public:
    explicit bitmap_tile_plan(bool tensor_cores) : tensor_cores_(tensor_cores) {}

    std::size_t buffer1_size(const problem& p) override {
        check_dimensions(p);
        return carve1(p, nullptr).bytes;
    }

    void work_estimation(const problem& p, void* buffer) override { work_estimation_if_dense(p, buffer, 0); }

    // The density test is made on the device between the conversion and the structure
    // pass and read back with the one synchronization, so a plan that runs costs what the
    // forced algorithm costs; one that does not has paid the conversion.
    bool work_estimation_if_dense(const problem& p, void* buffer, unsigned min_density) override {
        check_dimensions(p);
        if (tensor_cores_ && p.device->cc_major < 8)
            fail(errc::arch_mismatch, "tile SpGEMM on tensor cores needs compute capability 8.0");
        host_ = stats{};
        if (p.a.rows == 0) return true;
        const cudaStream_t s = p.stream;
        const buffer1 b = carve1(p, buffer);
        check_cuda(cudaMemsetAsync(b.st, 0, sizeof(stats), s), "tile SpGEMM: clear counters");
        formats::fill_tiles(p.a, 0, b.range, b.tiles, b.source_a, &b.st->a, s);
        if (!b.shared) formats::fill_tiles(p.b, int(p.a.nnz), b.range + b.a_panels, b.tiles, b.source_b, &b.st->b, s);

        density_gate gate;
        gate.a_entries = (unsigned long long)p.a.nnz;
        gate.b_entries = (unsigned long long)p.b.nnz;
        gate.min_density = min_density;
        gate.shared = b.shared;
        const int m = int(p.a.rows);
        // row_off[m] is not set: the exclusive scan's last output does not read it.
        structure(operands_of(p, b), b.row_off, b.st, gate, s);
        std::size_t scan_size = b.scan_size;
        check_cuda(cub::DeviceScan::ExclusiveSum(b.scan, scan_size, b.row_off, b.row_off, m + 1, s),
                   "tile SpGEMM: row offsets");
        stats read{};
        check_cuda(cudaMemcpyAsync(&read, b.st, sizeof(stats), cudaMemcpyDeviceToHost, s),
                   "tile SpGEMM: read counters");
        check_cuda(cudaStreamSynchronize(s), "tile SpGEMM: work estimation");
        // Decreasing row offsets (checking off: docs/validation.md) can make panels share tile
        // slots; the plan refuses them rather than multiply unsorted tiles.
        if ((read.a.decreasing_panels | read.b.decreasing_panels) != 0)
            fail(errc::invalid_value, "tile SpGEMM: row offsets of A or B decrease");
        if (min_density != 0 && !gate.open(read.a.tiles, read.b.tiles)) return false;
        // C's row offsets and positions in the multiplication are 32-bit here (the hash
        // plan's are 64-bit): the default hands such a C to the hash plan instead.
        if (read.nnz >= (1ull << 31)) {
            if (min_density != 0) return false;
            fail(errc::insufficient_resources,
                 "tile SpGEMM: nnz(C) >= 2^31 exceeds the tile algorithms' 32-bit row offsets "
                 "(TCS_SPGEMM_ALG_HASH and DEFAULT take it with 64-bit C)");
        }
        host_ = read;
        return true;
    }

    std::int64_t num_products() const override { return std::int64_t(host_.products); }
    std::int64_t nnz_c() const override { return std::int64_t(host_.nnz); }

    // buffer2 holds A's and B's values in tile order, which every panel of C reads: a
    // chunk of C's rows would need all of B's anyway, so the tile plans do not chunk.
    std::size_t buffer3_size(const problem&, double) override { return 0; }
    void set_chunks(const problem&, double f, void*, void*) override {
        if (f < 1.0)
            fail(errc::insufficient_resources,
                 "tile SpGEMM: chunk_fraction < 1: the tile algorithms do not chunk (buffer2 "
                 "holds A's and B's values whole); TCS_SPGEMM_ALG_HASH and DEFAULT do");
    }

    std::size_t buffer2_size(const problem& p) override {
        return carve2(p, same_matrix(p.a, p.b), nullptr).bytes;
    }

    void compute(const problem&, void*, void*) override {}

    void copy(const problem& p, void* b1, void* b2, const scalar_arg& alpha, const scalar_arg& beta,
              const csr_out& c) override {
        const cudaStream_t s = p.stream;
        if (p.a.rows == 0) {
            if (c.row_ptr != nullptr) formats::write_empty_offsets(index_out(c.row_ptr, c.offsets), c.base, s);
            return;
        }
        const buffer1 one = carve1(p, b1);
        const buffer2 two = carve2(p, one.shared, b2);
        formats::pack_values(p.a.values, one.source_a, p.a.nnz, p.a.type, two.values_a, s);
        if (!one.shared)
            formats::pack_values(p.b.values, one.source_b, p.b.nnz, p.b.type, two.values_b, s);
        multiply_job job;
        job.x = operands_of(p, one);
        job.a_values = two.values_a;
        job.b_values = two.values_b;
        job.row_off = one.row_off;
        job.c = c;
        job.alpha = alpha;
        job.beta = beta;
        job.data = p.a.type;
        job.how = policy_of(p.a.type, p.math, tensor_cores_);
        job.max_panel_tiles = host_.max_panel_tiles;
        multiply(job, s);
    }

private:
    bool tensor_cores_;
    stats host_{};
};

}  // namespace

namespace tiles {
void multiply(const multiply_job& job, cudaStream_t stream) {
    switch (job.data) {
    case value_type::f64: multiply_f64(job, stream); break;
    case value_type::f32: multiply_f32(job, stream); break;
    default: multiply_16bit(job, stream); break;
    }
}
}  // namespace tiles

bool tiles_fit(const problem& p) {
    return p.a.rows < INT_MAX && p.a.cols < INT_MAX && p.b.cols < INT_MAX && p.a.nnz < INT_MAX &&
           p.b.nnz < INT_MAX && p.a.nnz + p.b.nnz < INT_MAX;
}

std::unique_ptr<tile_plan> make_tile_plan(bool tensor_cores) {
    return std::make_unique<bitmap_tile_plan>(tensor_cores);
}

}  // namespace tcs::spgemm
