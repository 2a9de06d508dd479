// Plans by algorithm, and TCS_SPGEMM_DEFAULT's choice between the hash and the tile
// algorithm (docs/algorithms/spgemm-tiles.md, "The default"): 16-bit data always takes
// tiles on tensor cores (the hash algorithm has no 16-bit path); otherwise tiles when A
// and B are blocky: rows long enough (host-known, no GPU work) and, for those, a tile
// density measured on a sample of panels. Only that sample costs a synchronization, and
// only for inputs whose rows are long enough to be candidates.
#include "core/error.hpp"
#include "core/workspace.hpp"
#include "formats/bitmap_tiles.hpp"
#include "spgemm/plan.hpp"

#include <algorithm>

namespace tcs::spgemm {
namespace {

// Below this mean row length (nnz / rows) of A or of B, hash without sampling; from this
// many sampled entries per nonempty tile in A and in B, tiles. Both from the H100's
// times of every algorithm forced (docs/algorithms/spgemm-tiles.md, "The default"):
// tiles on tensor cores won from 24 entries per tile up and lost or barely won at 15-16,
// and the band of width 25 (mean row 24.99) is among the largest wins.
constexpr double kMinRowLength = 20.0;
constexpr double kMinTileDensity = 20.0;
// Panels sampled per matrix.
constexpr int kSamplePanels = 256;

bool is_16bit(value_type t) { return t == value_type::f16 || t == value_type::bf16; }

double mean_row_length(const csr_view& m) { return m.rows > 0 ? double(m.nnz) / double(m.rows) : 0.0; }

enum class verdict { hash, tiles, sample };

verdict from_shape(const problem& p) {
    if (is_16bit(p.a.type)) return verdict::tiles;
    if (p.a.nnz == 0 || p.b.nnz == 0) return verdict::hash;
    if (std::min(mean_row_length(p.a), mean_row_length(p.b)) < kMinRowLength) return verdict::hash;
    return verdict::sample;
}

// Entries per nonempty tile of A and of B on a sample of their panels; one read-back.
bool blocky(const problem& p, void* buffer) {
    carver cv(buffer);
    unsigned long long* totals = cv.take<unsigned long long>(4);
    check_cuda(cudaMemsetAsync(totals, 0, 4 * sizeof(unsigned long long), p.stream),
               "SpGEMM default: clear sample");
    const bool same = p.b.row_ptr == p.a.row_ptr && p.b.col_idx == p.a.col_idx && p.b.rows == p.a.rows;
    formats::sample_tiles(p.a, kSamplePanels, totals, p.stream);
    if (!same) formats::sample_tiles(p.b, kSamplePanels, totals + 2, p.stream);
    unsigned long long host[4] = {};
    check_cuda(cudaMemcpyAsync(host, totals, sizeof host, cudaMemcpyDeviceToHost, p.stream),
               "SpGEMM default: read sample");
    check_cuda(cudaStreamSynchronize(p.stream), "SpGEMM default: sample");
    if (same) host[2] = host[0], host[3] = host[1];
    const auto density = [](unsigned long long entries, unsigned long long tiles) {
        return tiles > 0 ? double(entries) / double(tiles) : 0.0;
    };
    return density(host[0], host[1]) >= kMinTileDensity && density(host[2], host[3]) >= kMinTileDensity;
}

// TCS_SPGEMM_DEFAULT: the size query decides from the shapes where it can; otherwise it
// asks for room for either plan, and workEstimation samples A and B, then runs one. A
// size query never changes the plan an earlier workEstimation chose.
class default_plan final : public plan {
public:
    std::size_t buffer1_size(const problem& p) override {
        verdict_ = from_shape(p);
        switch (verdict_) {
        case verdict::hash: return hash_->buffer1_size(p);
        case verdict::tiles: return tiles_->buffer1_size(p);
        case verdict::sample: break;
        }
        return std::max({hash_->buffer1_size(p), tiles_->buffer1_size(p),
                         std::size_t(4 * sizeof(unsigned long long))});
    }
    void work_estimation(const problem& p, void* buffer1) override {
        chosen_ = nullptr;
        const bool tiles = verdict_ == verdict::tiles || (verdict_ == verdict::sample && blocky(p, buffer1));
        plan* next = tiles ? tiles_.get() : hash_.get();
        next->work_estimation(p, buffer1);
        chosen_ = next;
    }
    std::int64_t num_products() const override { return chosen().num_products(); }
    std::int64_t nnz_c() const override { return chosen().nnz_c(); }
    std::size_t buffer2_size(const problem& p) override { return chosen().buffer2_size(p); }
    void compute(const problem& p, void* b1, void* b2) override { chosen().compute(p, b1, b2); }
    void copy(const problem& p, void* b1, void* b2, const scalar_arg& alpha, const scalar_arg& beta,
              const csr_out& c) override {
        chosen().copy(p, b1, b2, alpha, beta, c);
    }

private:
    plan& chosen() const {
        if (chosen_ == nullptr) fail(errc::internal_error, "SpGEMM default: no algorithm chosen");
        return *chosen_;
    }
    std::unique_ptr<plan> hash_ = make_hash_plan();
    std::unique_ptr<plan> tiles_ = make_tile_plan(true);
    plan* chosen_ = nullptr;
    verdict verdict_ = verdict::hash;  // of the last size query
};

}  // namespace

std::unique_ptr<plan> make_plan(algorithm alg) {
    switch (alg) {
    case algorithm::hash: return make_hash_plan();
    case algorithm::tile: return make_tile_plan(false);
    case algorithm::tile_tc: return make_tile_plan(true);
    case algorithm::automatic: return std::make_unique<default_plan>();
    }
    fail(errc::internal_error, "unknown SpGEMM algorithm");
}

}  // namespace tcs::spgemm
