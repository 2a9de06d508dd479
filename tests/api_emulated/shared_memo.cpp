// matA's preprocess memo (lib/objects.hpp, tcsSpMMActive; issue 38 item 3), without a GPU.
// A product takes the analysis preprocess made in its own buffer, whole, and keeps it
// while other threads publish theirs: the order of events a GPU test meets only by chance
// (gpu_shared_matrix), here forced. b94424b's memo (a plain struct overwritten in place,
// its fields read one by one) fails the second check: the product would pair its buffer
// with another thread's analysis. Then 8 threads publish and take at once: every memo a
// thread takes is one some thread published whole (its fields agree).
#include "objects.hpp"

#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

std::shared_ptr<const tcsSpMMMemo> memo_of(const void* buffer, std::uint64_t key, int runs, bool blocks) {
    auto m = std::make_shared<tcsSpMMMemo>();
    m->buffer = buffer;
    m->key = key;
    m->found.runs = runs;
    m->found.blocks = blocks;
    m->found.listed[0] = runs;  // a second field that must agree with the first
    return m;
}

void forced_interleaving() {
    tcsSpMMActive active;
    char mine = 0, theirs = 0;
    expect(active.active(&mine, 1) == nullptr, "no memo before a preprocess");
    active.publish(memo_of(&mine, 1, 3, false));
    const auto taken = active.active(&mine, 1);  // the product's check
    expect(taken != nullptr, "the product finds the analysis of its own buffer");
    if (taken == nullptr) return;
    active.publish(memo_of(&theirs, 2, 9, true));  // another thread's preprocess, before the use
    expect(taken->buffer == &mine && taken->found.runs == 3 && !taken->found.blocks,
           "the product still holds its own analysis after another thread published");
    expect(active.active(&mine, 1) == nullptr, "its buffer is no longer the active one");
    const auto now = active.active(&theirs, 2);
    expect(now != nullptr && now->found.runs == 9 && now->found.blocks, "the other thread's analysis is active");
    expect(active.active(&theirs, 3) == nullptr, "another key is not the active one");
    active.publish(nullptr);  // a failed preprocess
    expect(active.active(&theirs, 2) == nullptr, "a failed preprocess leaves no active buffer");
}

void threads_at_once() {
    constexpr int kThreads = 8, kRounds = 20000;
    tcsSpMMActive active;
    std::vector<char> buffers(kThreads);
    std::atomic<int> torn{0}, found{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int r = 0; r < kRounds; ++r) {
                active.publish(memo_of(&buffers[t], std::uint64_t(t), t + 1, t % 2 == 1));
                const auto m = active.active(&buffers[t], std::uint64_t(t));
                if (m == nullptr) continue;
                ++found;
                if (m->buffer != &buffers[t] || m->found.runs != t + 1 || m->found.listed[0] != t + 1 ||
                    m->found.blocks != (t % 2 == 1))
                    ++torn;
            }
        });
    for (std::thread& th : threads) th.join();
    std::printf("8 threads x %d rounds: %d memos taken, %d with another thread's fields\n", kRounds,
                found.load(), torn.load());
    expect(torn.load() == 0, "every memo taken is whole and its buffer's own");
}

}  // namespace

int main() {
    forced_interleaving();
    threads_at_once();
    std::printf(failures == 0 ? "PASSED\n" : "%d check(s) FAILED\n", failures);
    return failures == 0 ? 0 : 1;
}
