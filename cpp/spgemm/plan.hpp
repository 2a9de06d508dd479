// The SpGEMM algorithm interface. The C layer (lib/spgemm.cpp) owns the protocol:
// which call may follow which, which buffers were given, argument checks. A plan owns
// the mathematics: how many bytes each stage needs, and what runs in them.
//
// Stage order, as the C layer drives it:
//   buffer1_size(p)                      size query of workEstimation
//   work_estimation(p, b1)               fills b1; afterwards num_products() and nnz_c()
//   buffer3_size(p, f), set_chunks(...)  optional (estimateMemory): a memory budget
//   buffer2_size(p)                      size query of compute (exact)
//   compute(p, b1, b2)                   fills b2
//   copy(p, b1, b2, alpha, beta, c)      writes C (row offsets, sorted columns, values)
// compute and copy may be called again with new values in A and B (same patterns).
// Every stage runs on p.stream, allocates no device memory, and throws tcs::error.
#pragma once

#include "core/device.hpp"
#include "core/types.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tcs::spgemm {

struct problem {
    csr_view a;  // m x k
    csr_view b;  // k x n, of a's value type (as is C)
    int c_base = 0;
    value_type compute = value_type::f32;  // a.type for fp32/fp64 data, f32 for 16-bit data
    math_mode math = math_mode::standard;  // core/types.hpp
    cudaStream_t stream = nullptr;
    const device_info* device = nullptr;
};

class plan {
public:
    virtual ~plan() = default;

    virtual std::size_t buffer1_size(const problem& p) = 0;
    virtual void work_estimation(const problem& p, void* buffer1) = 0;
    virtual std::int64_t num_products() const = 0;
    virtual std::int64_t nnz_c() const = 0;

    // The memory budget of tcsSpGEMM_estimateMemory, between work_estimation and
    // compute: compute and copy take their rows in chunks of about chunk_fraction * m,
    // and buffer2_size reports what that needs. chunk_fraction 1 undoes it;
    // work_estimation resets it. buffer3 (buffer3_size bytes) is scratch for set_chunks
    // alone. A plan that cannot chunk throws insufficient_resources for a fraction below 1.
    virtual std::size_t buffer3_size(const problem& p, double chunk_fraction) = 0;
    virtual void set_chunks(const problem& p, double chunk_fraction, void* buffer1, void* buffer3) = 0;

    virtual std::size_t buffer2_size(const problem& p) = 0;
    virtual void compute(const problem& p, void* buffer1, void* buffer2) = 0;

    virtual void copy(const problem& p, void* buffer1, void* buffer2, const scalar_arg& alpha,
                      const scalar_arg& beta, const csr_out& c) = 0;
};

// automatic: hash or tile_tc, chosen per input (select.cpp).
enum class algorithm { hash, tile, tile_tc, automatic };

// Returns the plan for an algorithm; tile and tile_tc hand the products their rule
// (rule.hpp) finds far off tiles to the hash plan (select.cpp).
std::unique_ptr<plan> make_plan(algorithm alg);

// The nsparse-family hash plan (cpp/spgemm/hash/).
std::unique_ptr<plan> make_hash_plan();

// A tile plan, as the guarded plans of select.cpp use it: a plan whose workEstimation can
// first measure whether the tiles are dense enough.
class tile_plan : public plan {
public:
    // workEstimation, run to the end only where A and B hold at least min_density entries
    // per nonempty 8x8 tile (counted exactly by the conversion, tested on the device, read
    // back with the plan's one synchronization; 0: always). Returns whether it ran; if
    // not, buffer1 is free for another plan.
    virtual bool work_estimation_if_dense(const problem& p, void* buffer1, unsigned min_density) = 0;
};

// The tSparse-family tile plan (cpp/spgemm/tiles/): tiles multiplied on tensor cores or
// on CUDA cores.
std::unique_ptr<tile_plan> make_tile_plan(bool tensor_cores);

// Whether the tile plans can index the product: their rows, columns and entries of A
// and B are 32-bit (they refuse the rest with insufficient_resources).
bool tiles_fit(const problem& p);

}  // namespace tcs::spgemm
