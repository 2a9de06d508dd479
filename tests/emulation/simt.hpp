// A CPU emulation of the CUDA execution model, enough to run the library's kernels
// (hash and tile SpGEMM, block and CSR SpMM, their format conversions) unchanged: every
// thread of a block is a fiber (a stack of its own, switched in user space) on one OS
// thread; warp intrinsics are rendezvous of the warp's 32 lanes, __syncthreads one of
// the block; the next fiber to run is drawn at random at every rendezvous and before
// atomics, so that results which depend on scheduling show up as differences between
// runs with different seeds. A lane that skips a warp collective, exits inside one, or mixes two
// kinds of collective is reported, as is a deadlock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>

namespace emu {

struct uint3_ {
    unsigned x = 0, y = 0, z = 0;
};

struct fiber;
fiber* current();
const uint3_& thread_index();
extern uint3_ block_index, grid_dim, block_dim;

// Runs body once per thread of a grid of `grid` blocks of `threads` threads, block after
// block, with `smem` bytes of dynamic shared memory (filled with garbage first).
void run_grid(int grid, int threads, std::size_t smem, const std::function<void()>& body);
unsigned char* dynamic_shared();
void set_seed(std::uint64_t seed);
// Launch statistics: how often each kernel ran, with which block size and shared memory.
void count_launch(const char* what, int threads, std::size_t smem);
void print_launches();
long launches_of(const char* what);  // launches of kernel `what`, any block size
[[noreturn]] void fail(const char* what);

// Warp collectives: every lane of the warp brings a 64-bit payload and an argument;
// each gets back what `op` computes for it.
enum class op : int { shfl, shfl_up, shfl_xor, any, all, ballot, match_any, reduce_add,
                      reduce_min, reduce_max, reduce_or, syncwarp };
std::uint64_t collective(op o, unsigned mask, std::uint64_t value, int arg, int width);
int block_barrier(int predicate);  // returns the OR of the predicates

// A warp-wide exchange of up to kCombineBytes per lane, for instructions whose result
// depends on every lane's operands (mma.sync, ldmatrix): every lane of the warp brings
// `in`; when the 32nd arrives, `combine` runs once with all lanes' inputs and fills all
// lanes' outputs; each lane then gets its own `out`.
inline constexpr int kCombineBytes = 64;
using combine_fn = void (*)(const unsigned char (*ins)[kCombineBytes],
                            unsigned char (*outs)[kCombineBytes]);
void warp_combine(const void* in, std::size_t in_bytes, void* out, std::size_t out_bytes,
                  combine_fn combine);
void maybe_yield();                // a scheduling point (before atomics)

template <class T>
std::uint64_t bits_of(T v) {
    static_assert(sizeof(T) <= 8, "at most 64 bits");
    std::uint64_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    return u;
}
template <class T>
T from_bits(std::uint64_t u) {
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
}

}  // namespace emu
