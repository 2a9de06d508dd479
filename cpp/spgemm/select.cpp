// Plans by algorithm, and TCS_SPGEMM_DEFAULT's choice between the hash and the tile
// algorithm (docs/algorithms/spgemm-tiles.md, "The default"): 16-bit data always takes
// tiles on tensor cores (the hash algorithm has no 16-bit path); otherwise tiles when A
// and B are blocky: rows long enough and an inner dimension not much larger than both
// outer ones (host-known, no GPU work) and, for those, enough
// entries per tile, counted exactly by the tile plan's own conversion and tested on the
// device, so that choosing tiles costs nothing beyond them and choosing hash costs the
// conversion and the tile plan's synchronization.
#include "core/error.hpp"
#include "spgemm/plan.hpp"

#include <algorithm>

namespace tcs::spgemm {
namespace {

// Below this mean row length (nnz / rows) of A or of B, hash without looking at the
// pattern; from this many entries per nonempty tile in A and in B, tiles. Both from the H100's
// times of every algorithm forced (docs/algorithms/spgemm-tiles.md, "The default"):
// the band of width 25 (mean row 24.99) is among the largest wins, and since the one-pass
// conversion tiles on tensor cores beat hash from stencil27_d1_64's 8.6 entries per tile
// up (1.2x) and lose at Si2's 7.7 (0.5-0.7x). Below 20 entries per row the graphs' tiles
// are sparse, and measuring them would cost the conversion and a synchronization.
constexpr double kMinRowLength = 20.0;
constexpr unsigned kMinTileDensity = 8;
// From an inner dimension this many times both outer ones (a short-fat A times a
// tall-skinny B: an AMG restriction times A*P), hash without looking at the pattern:
// each panel of C then walks a long stretch of sparse tile pairs, and every such product
// of hypre's BoomerAMG setups lost to hash on tiles (docs/algorithms/spgemm-tiles.md,
// "Short-fat times tall-skinny").
constexpr double kMinInnerRatio = 2.0;

bool is_16bit(value_type t) { return t == value_type::f16 || t == value_type::bf16; }

double mean_row_length(const csr_view& m) { return m.rows > 0 ? double(m.nnz) / double(m.rows) : 0.0; }

enum class verdict { hash, tiles, measure };

verdict from_shape(const problem& p) {
    if (is_16bit(p.a.type)) return verdict::tiles;
    if (p.a.nnz == 0 || p.b.nnz == 0 || !tiles_fit(p)) return verdict::hash;
    if (std::min(mean_row_length(p.a), mean_row_length(p.b)) < kMinRowLength) return verdict::hash;
    if (double(p.a.cols) >= kMinInnerRatio * double(std::max(p.a.rows, p.b.cols))) return verdict::hash;
    return verdict::measure;
}

// TCS_SPGEMM_DEFAULT: the size query decides from the shapes where it can; otherwise it
// asks for room for either plan, and workEstimation runs the tile plan's, which stops
// after the conversion when the tiles are too sparse, and then the hash plan's. A size
// query never changes the plan an earlier workEstimation chose.
class default_plan final : public plan {
public:
    std::size_t buffer1_size(const problem& p) override {
        verdict_ = from_shape(p);
        switch (verdict_) {
        case verdict::hash: return hash_->buffer1_size(p);
        case verdict::tiles: return tiles_->buffer1_size(p);
        case verdict::measure: break;
        }
        return std::max(hash_->buffer1_size(p), tiles_->buffer1_size(p));
    }
    void work_estimation(const problem& p, void* buffer1) override {
        chosen_ = nullptr;
        plan* next = hash_.get();
        if (verdict_ == verdict::tiles) {
            tiles_->work_estimation(p, buffer1);
            next = tiles_.get();
        } else if (verdict_ == verdict::measure &&
                   tile_work_estimation_if_dense(*tiles_, p, buffer1, kMinTileDensity)) {
            next = tiles_.get();
        } else {
            hash_->work_estimation(p, buffer1);
        }
        chosen_ = next;
    }
    std::int64_t num_products() const override { return chosen().num_products(); }
    std::int64_t nnz_c() const override { return chosen().nnz_c(); }
    // Under a budget the default runs hash, which chunks: where it chose tiles after
    // measuring, buffer1 has room for the hash plan's analysis, which then runs there
    // (one more synchronization). 16-bit data have no hash path: the tile plan refuses.
    std::size_t buffer3_size(const problem& p, double f) override {
        return switches_to_hash(f) ? hash_->buffer3_size(p, f) : chosen().buffer3_size(p, f);
    }
    void set_chunks(const problem& p, double f, void* buffer1, void* buffer3) override {
        if (switches_to_hash(f)) {
            chosen_ = nullptr;
            hash_->work_estimation(p, buffer1);
            chosen_ = hash_.get();
        }
        chosen().set_chunks(p, f, buffer1, buffer3);
    }
    std::size_t buffer2_size(const problem& p) override { return chosen().buffer2_size(p); }
    void compute(const problem& p, void* b1, void* b2) override { chosen().compute(p, b1, b2); }
    void copy(const problem& p, void* b1, void* b2, const scalar_arg& alpha, const scalar_arg& beta,
              const csr_out& c) override {
        chosen().copy(p, b1, b2, alpha, beta, c);
    }

private:
    bool switches_to_hash(double f) const {
        return f < 1.0 && chosen_ == tiles_.get() && verdict_ == verdict::measure;
    }
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
