// CUDA runtime helpers for the benchmarks: failures as exceptions (a benchmark turns
// them into SkipWithError), device memory that frees itself and is counted, event
// timing on a stream, and the L2 flush that makes every timed sample start cold.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

// Anything that makes a benchmark's numbers meaningless: a CUDA error, a library
// status other than success, a result that differs from the CPU reference.
struct failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void check_cuda(cudaError_t e, const char* what);

class device_memory;

// One cudaMalloc'ed array, freed (and uncounted) when it goes out of scope.
class device_buffer {
public:
    device_buffer() = default;
    device_buffer(device_buffer&& other) noexcept { swap(other); }
    device_buffer& operator=(device_buffer&& other) noexcept {
        device_buffer(std::move(other)).swap(*this);
        return *this;
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    ~device_buffer();

    // Takes ownership of memory cudaMalloc'ed elsewhere (not counted by any tracker).
    static device_buffer adopt(void* ptr, std::size_t bytes) { return {ptr, bytes, nullptr}; }

    void* get() const { return ptr_; }
    template <class T> T* as() const { return static_cast<T*>(ptr_); }
    std::size_t bytes() const { return bytes_; }

private:
    friend class device_memory;
    friend device_buffer allocate_untracked(std::size_t bytes);
    device_buffer(void* ptr, std::size_t bytes, device_memory* owner)
        : ptr_(ptr), bytes_(bytes), owner_(owner) {}
    void swap(device_buffer& other) noexcept;

    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
    device_memory* owner_ = nullptr;
};

// Counts the bytes a user's code asked cudaMalloc for, as they are allocated and
// freed: the peak is a pipeline's memory footprint, measured the way a user pays it.
// Must outlive the buffers it hands out.
class device_memory {
public:
    device_buffer allocate(std::size_t bytes);
    std::size_t current() const { return current_; }
    std::size_t peak() const { return peak_; }

private:
    friend class device_buffer;
    std::size_t current_ = 0;
    std::size_t peak_ = 0;
};

// Set-up memory that is not part of any measured footprint (inputs, outputs of SpMM).
device_buffer allocate_untracked(std::size_t bytes);

// A start and a stop event: elapsed GPU-timeline time of everything the host queued
// between them. Where the GPU reaches the start event before the host has queued the
// rest, the host's time in between counts too; SpGEMM wants that (its pipeline waits
// for the device and allocates), SpMM holds the stream (stream_hold) so that it does not.
class event_timer {
public:
    event_timer();
    ~event_timer();
    event_timer(const event_timer&) = delete;
    event_timer& operator=(const event_timer&) = delete;
    void start(cudaStream_t stream);
    void stop(cudaStream_t stream);       // queues the stop event
    double elapsed_ms();                  // waits for the stop event
    double stop_ms(cudaStream_t stream);  // stop, then elapsed_ms

private:
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
};

// Holds a stream behind a one-thread kernel that waits for the host (hold.cu), so that
// a sample's start event, the call and its stop event are all queued before the GPU
// reaches any of them: the sample is then the GPU's time for the call whatever the host
// did meanwhile. Without it the L2 flush (tens of microseconds) normally covers the
// host's queueing, but a host that fell behind put its own delay between the events:
// H100, one process per matrix, bcsstk16 at n = 1 took 29.3 us instead of 6.7 while
// the host's time per iteration went from 51 to 113 us, and cuSPARSE's lock1074 at
// n = 32 took 78.8 us instead of 19.1. release() after the stop event is queued; the
// kernel gives up after a timeout, counted in expired(), so a call that waits for its
// own stream is slowed, never deadlocked (and its time stays the call's).
class stream_hold {
public:
    stream_hold();
    ~stream_hold();
    stream_hold(const stream_hold&) = delete;
    stream_hold& operator=(const stream_hold&) = delete;
    void hold(cudaStream_t stream);
    void release();
    int expired() const;

private:
    int* flags_ = nullptr;  // mapped host memory: [0] release, [1] expired holds
    int* device_flags_ = nullptr;
};

double median(std::vector<double> values);

}  // namespace bench
