#include "simt.hpp"

#include <ucontext.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <cstdlib>
#include <memory>
#include <vector>

namespace emu {

uint3_ block_index, grid_dim, block_dim;

namespace {

constexpr std::size_t kStack = 256 * 1024;

enum class state { ready, waiting_warp, waiting_block, done };

struct warp_state {
    int arrived = 0;
    unsigned generation = 0;
    op kind = op::syncwarp;
    int live = 0;
    std::uint64_t in[32] = {};
    int arg[32] = {};
    int width[32] = {};
    std::uint64_t out[32] = {};
    unsigned char blob_in[32][kCombineBytes] = {};
    unsigned char blob_out[32][kCombineBytes] = {};
    combine_fn combine = nullptr;
    bool combining = false;
};

struct block_state {
    int arrived = 0;
    unsigned generation = 0;
    int live = 0;
    int acc = 0, result = 0;
};

std::uint64_t rng_state = 0x9E3779B97F4A7C15ull;
std::uint64_t next_random() {
    std::uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

struct fiber {
    ucontext_t ctx;
    std::unique_ptr<char[]> stack;
    uint3_ tid;
    int warp = 0, lane = 0;
    state st = state::ready;
};

namespace {

ucontext_t scheduler_ctx;
std::vector<std::unique_ptr<fiber>> fibers;
std::vector<fiber*> ready;
std::vector<warp_state> warps;
block_state block;
fiber* running = nullptr;
const std::function<void()>* kernel_body = nullptr;
std::vector<unsigned char> smem;

void switch_to_scheduler() { swapcontext(&running->ctx, &scheduler_ctx); }

void make_ready(fiber* f) {
    f->st = state::ready;
    ready.push_back(f);
}

void yield_ready() {
    make_ready(running);
    switch_to_scheduler();
}

// Every live thread of the block has arrived: the barrier opens.
void open_barrier() {
    block.result = block.acc;
    block.acc = 0;
    block.arrived = 0;
    ++block.generation;
    for (auto& g : fibers)
        if (g->st == state::waiting_block) make_ready(g.get());
}

void trampoline() {
    (*kernel_body)();
    fiber* f = running;
    f->st = state::done;
    warp_state& w = warps[f->warp];
    if (w.arrived > 0) fail("a lane exited while its warp waits in a collective");
    --w.live;
    --block.live;
    // Exited threads no longer count at barriers (as whole exited warps on the GPU).
    if (block.arrived > 0 && block.arrived == block.live) open_barrier();
    switch_to_scheduler();
}

}  // namespace

fiber* current() { return running; }
const uint3_& thread_index() { return running->tid; }
unsigned char* dynamic_shared() { return smem.data(); }
namespace {
std::map<std::string, long> launches;
}
void count_launch(const char* what, int threads, std::size_t smem) {
    ++launches[std::string(what) + " / " + std::to_string(threads) + " threads / " +
               std::to_string(smem) + " B"];
}
void print_launches() {
    for (const auto& l : launches) std::printf("    %6ld x %s\n", l.second, l.first.c_str());
}
long launches_of(const char* what) {
    const std::string prefix = std::string(what) + " / ";
    long n = 0;
    for (const auto& l : launches)
        if (l.first.compare(0, prefix.size(), prefix) == 0) n += l.second;
    return n;
}

void set_seed(std::uint64_t seed) { rng_state = seed * 0x2545F4914F6CDD1Dull + 1; }

void fail(const char* what) {
    std::fprintf(stderr, "emulation: %s (block %u, thread %u)\n", what, block_index.x,
                 running ? running->tid.x : 0u);
    std::abort();
}

void maybe_yield() {
    if (running != nullptr && (next_random() & 3u) == 0) yield_ready();
}

std::uint64_t collective(op o, unsigned mask, std::uint64_t value, int arg, int width) {
    fiber* f = running;
    warp_state& w = warps[f->warp];
    if (mask != 0xffffffffu) fail("a warp collective with a partial mask");
    if (w.live != 32) fail("a full-mask warp collective in a warp with fewer than 32 live lanes");
    if (w.arrived == 0) {
        w.kind = o;
    } else if (w.kind != o || w.combining) {
        fail("lanes of a warp meet in different collectives");
    }
    w.in[f->lane] = value;
    w.arg[f->lane] = arg;
    w.width[f->lane] = width;
    if (++w.arrived == 32) {
        for (int l = 0; l < 32; ++l) {
            const int wd = w.width[l] > 0 ? w.width[l] : 32;
            const int seg = l & ~(wd - 1);
            std::uint64_t r = 0;
            switch (o) {
            case op::shfl: r = w.in[seg + (w.arg[l] & (wd - 1))]; break;
            case op::shfl_up: r = (l - seg) >= w.arg[l] ? w.in[l - w.arg[l]] : w.in[l]; break;
            case op::shfl_xor: {
                const int src = l ^ w.arg[l];
                r = src >= seg && src < seg + wd ? w.in[src] : w.in[l];
                break;
            }
            case op::any:
                for (int k = 0; k < 32; ++k) r |= w.in[k] != 0;
                break;
            case op::all:
                r = 1;
                for (int k = 0; k < 32; ++k) r &= w.in[k] != 0;
                break;
            case op::ballot:
                for (int k = 0; k < 32; ++k) r |= std::uint64_t(w.in[k] != 0) << k;
                break;
            case op::match_any:
                for (int k = 0; k < 32; ++k) r |= std::uint64_t(w.in[k] == w.in[l]) << k;
                break;
            case op::reduce_add: {
                std::int64_t s = 0;
                for (int k = 0; k < 32; ++k) s += std::int32_t(std::uint32_t(w.in[k]));
                r = std::uint32_t(std::int32_t(s));
                break;
            }
            case op::reduce_min: {
                std::int32_t s = std::int32_t(std::uint32_t(w.in[0]));
                for (int k = 1; k < 32; ++k) s = std::min(s, std::int32_t(std::uint32_t(w.in[k])));
                r = std::uint32_t(s);
                break;
            }
            case op::reduce_max: {
                std::int32_t s = std::int32_t(std::uint32_t(w.in[0]));
                for (int k = 1; k < 32; ++k) s = std::max(s, std::int32_t(std::uint32_t(w.in[k])));
                r = std::uint32_t(s);
                break;
            }
            case op::reduce_or:
                for (int k = 0; k < 32; ++k) r |= std::uint32_t(w.in[k]);
                break;
            case op::syncwarp: break;
            }
            w.out[l] = r;
        }
        w.arrived = 0;
        ++w.generation;
        for (auto& g : fibers)
            if (g->warp == f->warp && g->st == state::waiting_warp) make_ready(g.get());
        yield_ready();  // a scheduling point for the last lane too
    } else {
        f->st = state::waiting_warp;
        switch_to_scheduler();
    }
    return w.out[f->lane];
}

void warp_combine(const void* in, std::size_t in_bytes, void* out, std::size_t out_bytes,
                  combine_fn combine) {
    fiber* f = running;
    warp_state& w = warps[f->warp];
    if (in_bytes > std::size_t(kCombineBytes) || out_bytes > std::size_t(kCombineBytes))
        fail("warp_combine: more than kCombineBytes per lane");
    if (w.live != 32) fail("a warp-wide instruction in a warp with fewer than 32 live lanes");
    if (w.arrived == 0) {
        w.combining = true;
        w.combine = combine;
    } else if (!w.combining || w.combine != combine) {
        fail("lanes of a warp meet in different collectives");
    }
    std::memcpy(w.blob_in[f->lane], in, in_bytes);
    if (++w.arrived == 32) {
        combine(w.blob_in, w.blob_out);
        w.arrived = 0;
        w.combining = false;
        ++w.generation;
        for (auto& g : fibers)
            if (g->warp == f->warp && g->st == state::waiting_warp) make_ready(g.get());
        yield_ready();
    } else {
        f->st = state::waiting_warp;
        switch_to_scheduler();
    }
    std::memcpy(out, w.blob_out[f->lane], out_bytes);
}

int block_barrier(int predicate) {
    fiber* f = running;
    block.acc |= predicate != 0;
    if (++block.arrived == block.live) {
        open_barrier();
        yield_ready();
    } else {
        f->st = state::waiting_block;
        switch_to_scheduler();
    }
    return block.result;
}

void run_grid(int grid, int threads, std::size_t smem_bytes, const std::function<void()>& body) {
    if (threads <= 0 || threads > 1024 || grid <= 0) fail("bad launch configuration");
    grid_dim = {unsigned(grid), 1, 1};
    block_dim = {unsigned(threads), 1, 1};
    kernel_body = &body;
    while (int(fibers.size()) < threads) {
        auto f = std::make_unique<fiber>();
        f->stack.reset(new char[kStack]);
        fibers.push_back(std::move(f));
    }
    for (int b = 0; b < grid; ++b) {
        block_index = {unsigned(b), 0, 0};
        smem.assign(smem_bytes + 16, 0xA5);
        const int n_warps = (threads + 31) / 32;
        warps.assign(std::size_t(n_warps), warp_state{});
        block = block_state{};
        block.live = threads;
        ready.clear();
        std::vector<fiber*> mine;
        for (int t = 0; t < threads; ++t) {
            fiber* f = fibers[std::size_t(t)].get();
            f->tid = {unsigned(t), 0, 0};
            f->warp = t / 32;
            f->lane = t % 32;
            ++warps[std::size_t(f->warp)].live;
            getcontext(&f->ctx);
            f->ctx.uc_stack.ss_sp = f->stack.get();
            f->ctx.uc_stack.ss_size = kStack;
            f->ctx.uc_link = nullptr;
            makecontext(&f->ctx, trampoline, 0);
            make_ready(f);
            mine.push_back(f);
        }
        for (int t = threads; t < int(fibers.size()); ++t) fibers[std::size_t(t)]->st = state::done;
        int finished = 0;
        while (finished < threads) {
            if (ready.empty()) {
                running = nullptr;
                fail("deadlock: every live thread waits");
            }
            const std::size_t pick = std::size_t(next_random() % ready.size());
            fiber* f = ready[pick];
            ready[pick] = ready.back();
            ready.pop_back();
            running = f;
            swapcontext(&scheduler_ctx, &f->ctx);
            running = nullptr;
            if (f->st == state::done) ++finished;
        }
    }
    kernel_body = nullptr;
}

}  // namespace emu
