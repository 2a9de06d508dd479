// Plans by algorithm, and the guarded tile plans: TCS_SPGEMM_DEFAULT's choice between the
// hash and the tile algorithm, and the explicit tile algorithms' hand-off to hash
// (docs/algorithms/spgemm-tiles.md, "The default" and "Explicit tile algorithms"). Both
// are one plan on two rules (rule.hpp): 16-bit data always takes tiles (hash_takes: the
// hash algorithm has no 16-bit path); otherwise the shapes send some products to hash on
// the host (no GPU work), and for the others the tile plan's own conversion counts the
// tiles exactly and the device tests their density, so that keeping tiles costs nothing
// beyond them and handing off costs the conversion and the tile plan's synchronization.
#include "core/environment.hpp"
#include "core/error.hpp"
#include "formats/bitmap_tiles.hpp"
#include "spgemm/plan.hpp"
#include "spgemm/rule.hpp"

#include <algorithm>

namespace tcs::spgemm {
namespace {

// A tile plan guarded by a rule: the size query decides from the shapes where it can
// (or from a sample of the tiles, kept for the same operands); otherwise it asks for room
// for either plan, and workEstimation runs the tile plan's, which stops after the
// conversion when the tiles are too sparse (or nnz(C) needs 64-bit offsets), and then the
// hash plan's. The verdict is taken again at each stage (the sample's from its memo), so
// a size query never changes the plan an earlier workEstimation chose.
class guarded_plan final : public plan {
public:
    // budget_to_hash: under a memory budget (chunk_fraction < 1) a product the rule gave
    // to tiles after measuring runs hash instead (DEFAULT); otherwise the tile plan
    // refuses the budget (the explicit algorithms).
    guarded_plan(const tile_rule& rule, bool tensor_cores, bool budget_to_hash)
        : rule_(rule), tiles_(make_tile_plan(tensor_cores)), budget_to_hash_(budget_to_hash) {}

    // A product to probe is sampled at its first stage (the size query, as a rule), and
    // the sample's verdict kept for the same operands, so that the size query and
    // workEstimation agree and the sample is read once.
    std::size_t buffer1_size(const problem& p) override {
        switch (resolve(p)) {
        case verdict::hash: return hash_->buffer1_size(p);
        case verdict::tiles: return tiles_->buffer1_size(p);
        case verdict::measure:
        case verdict::probe: break;
        }
        return std::max(hash_->buffer1_size(p), tiles_->buffer1_size(p));
    }
    void work_estimation(const problem& p, void* buffer1) override {
        chosen_ = nullptr;
        measured_ = false;
        plan* next = hash_.get();
        const verdict v = resolve(p);
        if (v == verdict::tiles) {
            tiles_->work_estimation(p, buffer1);
            next = tiles_.get();
        } else if (v == verdict::measure &&
                   tiles_->work_estimation_if_dense(p, buffer1, rule_.min_density)) {
            next = tiles_.get();
            measured_ = true;
        } else {
            hash_->work_estimation(p, buffer1);
        }
        chosen_ = next;
    }
    std::int64_t num_products() const override { return chosen().num_products(); }
    std::int64_t nnz_c() const override { return chosen().nnz_c(); }
    // Where hash runs, it chunks. Where tiles run after measuring and the plan switches
    // under a budget, buffer1 has room for the hash plan's analysis, which then runs there
    // (one more synchronization). Otherwise the tile plan refuses (16-bit data always).
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
    // The shapes' verdict, with a probe resolved: measure where a sample of A's tiles, and
    // of B's where B is another matrix, holds at least the rule's density, else hash.
    // While the stream is being captured (no copy may wait there) a probe stays a measure.
    verdict resolve(const problem& p) {
        const verdict v = from_shape(p, rule_);
        if (v != verdict::probe) return v;
        const operands key{p.a, p.b};
        if (probed_ && key == probed_for_) return probe_verdict_;
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        check_cuda(cudaStreamIsCapturing(p.stream, &capture), "SpGEMM probe: capture status");
        if (capture != cudaStreamCaptureStatusNone) return verdict::measure;
        const auto dense = [&](const csr_view& m) {
            const formats::tile_sample t =
                formats::sample_tiles(m, kProbeRuns, kProbePanels, kProbeMaxEntries, p.stream);
            return t.density() >= double(rule_.min_density);
        };
        const bool same = p.a.row_ptr == p.b.row_ptr && p.a.col_idx == p.b.col_idx;
        probe_verdict_ = dense(p.a) && (same || dense(p.b)) ? verdict::measure : verdict::hash;
        probed_for_ = key;
        probed_ = true;
        return probe_verdict_;
    }
    // What a probe's verdict was taken for: both operands' arrays and sizes.
    struct operands {
        csr_view a, b;
        bool operator==(const operands& o) const { return same(a, o.a) && same(b, o.b); }
        static bool same(const csr_view& x, const csr_view& y) {
            return x.row_ptr == y.row_ptr && x.col_idx == y.col_idx && x.rows == y.rows &&
                   x.cols == y.cols && x.nnz == y.nnz && x.base == y.base && x.offsets == y.offsets &&
                   x.columns == y.columns;
        }
    };
    bool switches_to_hash(double f) const {
        return budget_to_hash_ && f < 1.0 && chosen_ == tiles_.get() && measured_;
    }
    plan& chosen() const {
        if (chosen_ == nullptr) fail(errc::internal_error, "SpGEMM: no algorithm chosen");
        return *chosen_;
    }
    tile_rule rule_;
    std::unique_ptr<plan> hash_ = make_hash_plan();
    std::unique_ptr<tile_plan> tiles_;
    bool budget_to_hash_;
    plan* chosen_ = nullptr;
    bool measured_ = false;  // tiles chosen by the density test (not for 16-bit data)
    bool probed_ = false;  // probe_verdict_ holds for probed_for_
    operands probed_for_;
    verdict probe_verdict_ = verdict::hash;
};

std::unique_ptr<plan> explicit_tile_plan(bool tensor_cores) {
    if (!explicit_hand_off_enabled()) return make_tile_plan(tensor_cores);
    return std::make_unique<guarded_plan>(kExplicitRule, tensor_cores, false);
}

}  // namespace

std::unique_ptr<plan> make_plan(algorithm alg) {
    switch (alg) {
    case algorithm::hash: return make_hash_plan();
    case algorithm::tile: return explicit_tile_plan(false);
    case algorithm::tile_tc: return explicit_tile_plan(true);
    case algorithm::automatic: return std::make_unique<guarded_plan>(kDefaultRule, true, true);
    }
    fail(errc::internal_error, "unknown SpGEMM algorithm");
}

}  // namespace tcs::spgemm
