// The timed samples of a call that only queues work (SpMM, SpMV): each sample flushes
// L2, then holds the stream (stream_hold) while the start event, the call and the stop
// event are queued, so the sample is the GPU's time for the call; the host's time
// inside the call is kept apart (call_host_us). And the counters every such benchmark
// reports from them.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#include "cuda_util.hpp"
#include "gpu.hpp"

namespace bench {

struct held_samples {
    std::vector<double> ms;       // GPU time of each sample
    std::vector<double> host_us;  // host time inside each call
    int expired = 0;              // samples whose call waited for its own stream
};

template <class Call>
held_samples run_held_samples(benchmark::State& state, Call&& call) {
    const gpu_state& g = gpu();
    event_timer timer;
    stream_hold hold;
    held_samples out;
    for (auto _ : state) {
        flush_l2();
        hold.hold(g.stream);
        timer.start(g.stream);
        const auto called = std::chrono::steady_clock::now();
        call();
        out.host_us.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - called)
                .count());
        timer.stop(g.stream);
        hold.release();
        const double t = timer.elapsed_ms();
        state.SetIterationTime(t * 1e-3);
        out.ms.push_back(t);
    }
    out.expired = hold.expired();
    return out;
}

// The median time and what it means against the memory floor: `bytes` moved at the
// device's measured copy bandwidth, and with the least a kernel launch takes added (no
// kernel can beat floor + launch). hold_expired counts samples whose call waited for its
// own stream (the hold timed out): 0 for a call that only queues work.
inline void report_held_samples(benchmark::State& state, const held_samples& s, double bytes,
                                double flops) {
    const gpu_state& g = gpu();
    const double floor_ms = bytes / g.copy_bandwidth * 1e3;
    const double med = median(s.ms);
    state.counters["ms"] = med;
    state.counters["gflops"] = flops / (med * 1e-3) * 1e-9;
    state.counters["floor_ms"] = floor_ms;
    state.counters["floor_ratio"] = med / floor_ms;
    state.counters["launch_ms"] = g.launch_seconds * 1e3;
    state.counters["floor_launch_ratio"] = med / (floor_ms + g.launch_seconds * 1e3);
    state.counters["bytes_moved"] = bytes;
    state.counters["call_host_us"] = median(s.host_us);
    state.counters["hold_expired"] = s.expired;
}

}  // namespace bench
