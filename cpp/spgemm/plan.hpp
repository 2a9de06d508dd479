// The SpGEMM algorithm interface. The C layer (lib/spgemm.cpp) owns the protocol:
// which call may follow which, which buffers were given, argument checks. A plan owns
// the mathematics: how many bytes each stage needs, and what runs in them.
//
// Stage order, as the C layer drives it:
//   buffer1_size(p)                      size query of workEstimation
//   work_estimation(p, b1)               fills b1; afterwards num_products() and nnz_c()
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
    csr_view b;  // k x n
    int c_base = 0;
    value_type compute = value_type::f32;  // equals a.type and b.type
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

    virtual std::size_t buffer2_size(const problem& p) = 0;
    virtual void compute(const problem& p, void* buffer1, void* buffer2) = 0;

    virtual void copy(const problem& p, void* buffer1, void* buffer2, const scalar_arg& alpha,
                      const scalar_arg& beta, const csr_out& c) = 0;
};

enum class algorithm { hash, tile, tile_tc };

// Returns the plan for an algorithm; throws not_supported for one not built yet.
std::unique_ptr<plan> make_plan(algorithm alg);

// The nsparse-family hash plan (cpp/spgemm/hash/).
std::unique_ptr<plan> make_hash_plan();

}  // namespace tcs::spgemm
