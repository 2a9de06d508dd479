// Adding products into a row's accumulators in an order fixed by the patterns of A and
// B alone, so that the values of C are bitwise reproducible run to run, without value
// atomics.
//
// Within a warp: the lanes hold consecutive products of the row (block_walk.cuh). Lanes
// that hit the same accumulator are combined by the lowest of them, which adds their
// values one by one in lane order to the accumulator; no two lanes ever write one
// accumulator, so no atomics and no lost updates (not even for duplicate column indices
// within a row of B).
//
// Across the warps of a block sharing one row (block and wide bins): the block walks the
// row's products in windows of K chunks of 32 per warp (block_walk.cuh). In a
// window every active lane marks its accumulator with its warp's bit; an accumulator
// touched by several warps then receives their contributions in rounds, lowest warp
// first, one block barrier per round. The number of rounds is the largest number of
// warps sharing an accumulator in the window (often 1 on graphs).
//
// When the block's warps can each have their own copy of the accumulators (small tables,
// accumulate_private), no marks and rounds are needed: each warp sums its products into
// its copy, and the copies are added up in warp order at the end. Rows whose products
// pile onto few columns (mbeacxc: 25 products per entry of C) would otherwise take a
// round per warp in every window.
#pragma once

#include "spgemm/hash/block_walk.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace tcs::spgemm::hash {

// Shared memory, or global memory that only this block uses (after a barrier, plain
// loads there may hit the SM's L1, so they go to L2 instead).
struct plain_access {
    template <class T>
    __device__ static T load(const T* p) { return *p; }
    template <class T>
    __device__ static void store(T* p, T v) { *p = v; }
};
struct l2_access {
    template <class T>
    __device__ static T load(const T* p) { return __ldcg(p); }
    template <class T>
    __device__ static void store(T* p, T v) { __stcg(p, v); }
};

// vals[slot] += the active lanes' values, lane by lane in lane order; then the one lane
// that wrote the slot calls done(slot). `tag` tells equal accumulators apart among the
// warp's lanes (>= 0 for active lanes). Every lane of the warp must call it.
template <class Access, class V, class Done>
__device__ __forceinline__ void commit_in_order(bool active, int tag, V value, V* vals, int slot,
                                                Done&& done) {
    if (!__any_sync(kFullMask, active)) return;  // uniform: nothing to add in this warp
    const int lane = lane_id();
    const unsigned peers = __match_any_sync(kFullMask, active ? tag : -1 - lane);
    const bool leader = active && __ffs(peers) - 1 == lane;
    unsigned rest = leader ? peers & (peers - 1u) : 0u;  // the other lanes, ascending
    V acc = V(0);
    if (leader) acc = Access::load(vals + slot) + value;
    while (__any_sync(kFullMask, rest != 0u)) {
        const int src = rest != 0u ? __ffs(rest) - 1 : lane;
        const V y = __shfl_sync(kFullMask, value, src);
        if (rest != 0u) {
            acc += y;
            rest &= rest - 1u;
        }
    }
    if (leader) {
        Access::store(vals + slot, acc);
        done(slot);
    }
}
template <class Access, class V>
__device__ __forceinline__ void commit_in_order(bool active, int tag, V value, V* vals, int slot) {
    commit_in_order<Access>(active, tag, value, vals, slot, [](int) {});
}

// Per-accumulator warp marks in shared memory: M is 8, 16 or 32 bits (warps per block),
// packed in 32-bit words so that atomicOr can set them.
template <class M>
struct shared_marks {
    M* m;
    __device__ void set(int slot, int warp) const {
        constexpr int per_word = 4 / int(sizeof(M));
        unsigned* word = reinterpret_cast<unsigned*>(m) + slot / per_word;
        atomicOr(word, (1u << warp) << (8 * int(sizeof(M)) * (slot % per_word)));
    }
    __device__ unsigned get(int slot) const { return m[slot]; }
    __device__ void clear(int slot) const { m[slot] = M(0); }
};
template <int NT>
using mark_t = std::conditional_t<NT <= 256, std::uint8_t,
                                  std::conditional_t<NT <= 512, std::uint16_t, std::uint32_t>>;

// Marks in global memory (wide rows), one 32-bit word per accumulator.
struct global_marks {
    unsigned* m;
    __device__ void set(int slot, int warp) const { atomicOr(m + slot, 1u << warp); }
    __device__ unsigned get(int slot) const { return __ldcg(m + slot); }
    __device__ void clear(int slot) const { __stcg(m + slot, 0u); }
};

// Adds every product of A's row entries [t0, t1) into vals[slot_of(col)] in the fixed
// order described above (slot_of returns -1 for a product to drop); a window holds K
// chunks per warp, committed chunk after chunk. `rounds` is two ints of shared memory,
// zero on entry and on return. Every thread of the block calls it.
template <int NT, int K, class Access, class V, class SlotOf, class Marks>
__device__ void accumulate_ordered(const operands& x, const operand_values<V>& v, int t0, int t1,
                                   SlotOf&& slot_of, const Marks& marks, V* vals, int* rounds) {
    constexpr int kWarps = NT / 32;
    static_assert(kWarps <= 32, "one mark bit per warp");
    __shared__ block_batch<NT, true, V> s;
    const int warp = int(threadIdx.x) / 32, lane = lane_id();
    int parity = 0;
    for (int t = t0; t < t1; t += NT) {  // uniform: the whole block walks one row
        const int total = load_block_batch<NT, true>(x, v.a, t, t1, s);
        const int entries = min(NT, t1 - t);
        int e = 0;
        // A window: chunk k of warp w is products base + k*NT + w*32 + lane.
        for (int base = 0; base < total; base += NT * K) {
            bool act[K];
            int slot[K];
            V val[K];
#pragma unroll
            for (int k = 0; k < K; ++k) {
                act[k] = false;
                slot[k] = 0;
                val[k] = V(0);
                const int p = base + k * NT + int(threadIdx.x);
                if (p < total) {
                    const product<V> pr = block_product<NT, true>(x, v.b, s, entries, p, e);
                    slot[k] = pr.active ? slot_of(pr.col) : -1;
                    act[k] = slot[k] >= 0;
                    val[k] = pr.value;
                }
                if (act[k]) marks.set(slot[k], warp);
            }
            __syncthreads();
            int rank[K], most = 0;
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const unsigned seen = act[k] ? marks.get(slot[k]) : 0u;
                rank[k] = __popc(seen & ((1u << warp) - 1u));
                most = max(most, __popc(seen));
            }
            most = __reduce_max_sync(kFullMask, most);
            if (lane == 0 && most > 0) atomicMax(rounds + parity, most);
            if (threadIdx.x == 0) rounds[parity ^ 1] = 0;  // read last in the previous window
            __syncthreads();
            // Round r: the warps that are the r-th to touch an accumulator add to it. The
            // marks are read no more, so the first writer of each clears its one.
            const int n_rounds = rounds[parity];
            for (int r = 0; r < n_rounds; ++r) {
#pragma unroll
                for (int k = 0; k < K; ++k) {
                    commit_in_order<Access>(act[k] && rank[k] == r, slot[k], val[k], vals, slot[k],
                                            [=](int sl) {
                                                if (r == 0) marks.clear(sl);
                                            });
                    __syncwarp();  // chunk k's sums are visible to chunk k+1's lanes
                }
                __syncthreads();
            }
            parity ^= 1;
        }
    }
    __syncthreads();  // every thread has read its last window's round count
    if (threadIdx.x == 0) rounds[0] = rounds[1] = 0;
}

// Adds every product of A's row entries [t0, t1) into the block's accumulators with
// one copy per warp: warp w adds its products (chunk w of every NT consecutive products)
// into vals[w*T + slot], lane by lane; then vals[slot] = the copies summed in warp
// order. T: slots per copy. Every thread of the block calls it; it ends with a barrier.
template <int NT, int T, class V, class SlotOf>
__device__ void accumulate_private(const operands& x, const operand_values<V>& v, int t0, int t1,
                                   SlotOf&& slot_of, V* vals) {
    __shared__ block_batch<NT, true, V> s;
    const int warp = int(threadIdx.x) / 32;
    V* mine = vals + warp * T;
    for (int t = t0; t < t1; t += NT) {  // uniform: the whole block walks one row
        const int total = load_block_batch<NT, true>(x, v.a, t, t1, s);
        const int entries = min(NT, t1 - t);
        int e = 0;
        for (int base = 0; base < total; base += NT) {
            const int p = base + int(threadIdx.x);
            int slot = -1;
            V value = V(0);
            if (p < total) {
                const product<V> pr = block_product<NT, true>(x, v.b, s, entries, p, e);
                slot = pr.active ? slot_of(pr.col) : -1;
                value = pr.value;
            }
            commit_in_order<plain_access>(slot >= 0, slot, value, mine, slot);
            __syncwarp();  // this chunk's sums are visible to the next chunk's lanes
        }
    }
    __syncthreads();
    for (int j = int(threadIdx.x); j < T; j += NT) {
        V sum = vals[j];
#pragma unroll
        for (int w = 1; w < NT / 32; ++w) sum += vals[w * T + j];
        vals[j] = sum;
    }
    __syncthreads();
}

}  // namespace tcs::spgemm::hash
