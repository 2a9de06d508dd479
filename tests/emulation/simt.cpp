#include "simt.hpp"

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define TCS_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TCS_EMU_ASAN 1
#endif
#endif
#ifdef TCS_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <cstdlib>
#include <memory>
#include <vector>

// Switching between fibers. glibc's swapcontext saves and restores the signal mask, a
// system call at every switch (two per lane and collective), which made the emulation
// spend most of its time in the kernel; on x86-64 a switch here saves the registers the
// ABI asks a callee to keep (rbx, rbp, r12-r15, the SSE and x87 control words) on the
// fiber's own stack and swaps stack pointers. Elsewhere, ucontext.
#if defined(__x86_64__)
extern "C" void tcs_emu_switch(void** save_sp, void* load_sp);
asm(R"(
    .text
    .p2align 4
    .globl tcs_emu_switch
    .hidden tcs_emu_switch
    .type tcs_emu_switch, @function
tcs_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size tcs_emu_switch, .-tcs_emu_switch
)");
#endif

namespace emu {

uint3_ block_index, grid_dim, block_dim;

namespace {

constexpr std::size_t kStack = 256 * 1024;

// One execution context: a fiber's, or the scheduler's (the thread's own stack).
struct context {
#if defined(__x86_64__)
    void* sp = nullptr;
#else
    ucontext_t uc;
#endif
};

// A context that starts `entry` (which never returns) on `stack`.
void make_context(context& c, char* stack, std::size_t bytes, void (*entry)()) {
#if defined(__x86_64__)
    // What tcs_emu_switch pops: the control words (MXCSR 0x1F80, x87 0x037F: round to
    // nearest, exceptions masked), r15 .. rbp, then `entry` as the return address, with
    // the stack 16-byte aligned at entry as after a call.
    auto top = reinterpret_cast<std::uintptr_t>(stack + bytes) & ~std::uintptr_t(15);
    auto* slot = reinterpret_cast<std::uint64_t*>(top);
    *--slot = 0;  // entry's own return address: none
    *--slot = reinterpret_cast<std::uint64_t>(entry);
    for (int r = 0; r < 6; ++r) *--slot = 0;
    *--slot = 0x1F80ull | (0x037Full << 32);
    c.sp = slot;
#else
    getcontext(&c.uc);
    c.uc.uc_stack.ss_sp = stack;
    c.uc.uc_stack.ss_size = bytes;
    c.uc.uc_link = nullptr;
    makecontext(&c.uc, entry, 0);
#endif
}

void switch_context(context& from, context& to) {
#if defined(__x86_64__)
    tcs_emu_switch(&from.sp, to.sp);
#else
    swapcontext(&from.uc, &to.uc);
#endif
}

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
    context ctx;
    std::unique_ptr<char[]> stack;
    uint3_ tid;
    int warp = 0, lane = 0;
    state st = state::ready;
    void* asan_fake_stack = nullptr;  // AddressSanitizer's, kept while switched out
};

namespace {

context scheduler_ctx;
std::vector<std::unique_ptr<fiber>> fibers;
std::vector<fiber*> ready;
std::vector<warp_state> warps;
block_state block;
fiber* running = nullptr;
const std::function<void()>* kernel_body = nullptr;
std::vector<unsigned char> smem;

// AddressSanitizer is told of every switch between stacks (or it takes a fiber's frames
// for overflows of the thread's stack); the scheduler's stack bounds come back from the
// first switch into a fiber.
#ifdef TCS_EMU_ASAN
const void* scheduler_stack = nullptr;
std::size_t scheduler_stack_bytes = 0;
#endif

// Runs on the fiber's stack, just after a switch into it.
void arrived_in_fiber() {
#ifdef TCS_EMU_ASAN
    __sanitizer_finish_switch_fiber(running->asan_fake_stack, &scheduler_stack, &scheduler_stack_bytes);
#endif
}

// A finished fiber switches out for good (its fake stack, if any, goes).
void switch_to_scheduler() {
#ifdef TCS_EMU_ASAN
    running->asan_fake_stack = nullptr;
    __sanitizer_start_switch_fiber(running->st == state::done ? nullptr : &running->asan_fake_stack,
                                   scheduler_stack, scheduler_stack_bytes);
#endif
    switch_context(running->ctx, scheduler_ctx);
    arrived_in_fiber();
}

void switch_to_fiber(fiber* f);

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

// The waiting lanes of warp w are ready again (in thread order, as the schedule's
// random draws expect).
void wake_warp(int w) {
    const std::size_t first = std::size_t(w) * 32, last = std::min(fibers.size(), first + 32);
    for (std::size_t t = first; t < last; ++t)
        if (fibers[t]->st == state::waiting_warp) make_ready(fibers[t].get());
}

void trampoline() {
    arrived_in_fiber();
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

void switch_to_fiber(fiber* f) {
#ifdef TCS_EMU_ASAN
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, f->stack.get(), kStack);
#endif
    switch_context(scheduler_ctx, f->ctx);
#ifdef TCS_EMU_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
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
        wake_warp(f->warp);
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
        wake_warp(f->warp);
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
#ifdef TCS_EMU_ASAN
            // The frames a finished fiber left on the stack are gone.
            __asan_unpoison_memory_region(f->stack.get(), kStack);
#endif
            make_context(f->ctx, f->stack.get(), kStack, trampoline);
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
            switch_to_fiber(f);
            running = nullptr;
            if (f->st == state::done) ++finished;
        }
    }
    kernel_body = nullptr;
}

}  // namespace emu
