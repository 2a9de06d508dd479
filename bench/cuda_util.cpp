#include "cuda_util.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

#include "hold.hpp"

namespace bench {

void check_cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw failure(std::string(what) + ": " + cudaGetErrorName(e) + " (" +
                      cudaGetErrorString(e) + ")");
}

device_buffer::~device_buffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // no throw from a destructor: errors resurface later
    if (owner_ != nullptr) owner_->current_ -= bytes_;
}

void device_buffer::swap(device_buffer& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(bytes_, other.bytes_);
    std::swap(owner_, other.owner_);
}

namespace {
void* malloc_device(std::size_t bytes) {
    void* p = nullptr;
    // cudaMalloc(0) may return NULL, which the SpGEMM protocols read as "size query";
    // one byte keeps every buffer a real one while the counted size stays exact.
    const cudaError_t e = cudaMalloc(&p, std::max<std::size_t>(bytes, 1));
    if (e != cudaSuccess) {
        cudaGetLastError();  // an allocation failure is not sticky: clear it
        check_cuda(e, ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
    }
    return p;
}
}  // namespace

device_buffer device_memory::allocate(std::size_t bytes) {
    device_buffer b(malloc_device(bytes), bytes, this);
    current_ += bytes;
    peak_ = std::max(peak_, current_);
    return b;
}

device_buffer allocate_untracked(std::size_t bytes) {
    return device_buffer(malloc_device(bytes), bytes, nullptr);
}

event_timer::event_timer() {
    check_cuda(cudaEventCreate(&start_), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop_), "cudaEventCreate");
}

event_timer::~event_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
}

void event_timer::start(cudaStream_t stream) {
    check_cuda(cudaEventRecord(start_, stream), "cudaEventRecord");
}

void event_timer::stop(cudaStream_t stream) {
    check_cuda(cudaEventRecord(stop_, stream), "cudaEventRecord");
}

double event_timer::elapsed_ms() {
    check_cuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
}

double event_timer::stop_ms(cudaStream_t stream) {
    stop(stream);
    return elapsed_ms();
}

namespace {
// Long enough for any host delay seen in a sample, short enough that a call which
// waits for its own stream costs a benchmark seconds, not minutes.
constexpr unsigned long long kHoldTimeoutNs = 20'000'000;
}  // namespace

stream_hold::stream_hold() {
    check_cuda(cudaHostAlloc(reinterpret_cast<void**>(&flags_), 2 * sizeof(int),
                             cudaHostAllocMapped),
               "cudaHostAlloc (stream hold)");
    flags_[0] = flags_[1] = 0;
    check_cuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags_), flags_, 0),
               "cudaHostGetDevicePointer (stream hold)");
}

stream_hold::~stream_hold() { cudaFreeHost(flags_); }

void stream_hold::hold(cudaStream_t stream) {
    // The previous hold has finished: its sample's stop event, queued after it, was
    // waited for before this call.
    reinterpret_cast<volatile int*>(flags_)[0] = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    check_cuda(launch_hold(device_flags_, device_flags_ + 1, kHoldTimeoutNs, stream),
               "hold kernel launch");
}

void stream_hold::release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    reinterpret_cast<volatile int*>(flags_)[0] = 1;
}

int stream_hold::expired() const { return reinterpret_cast<const volatile int*>(flags_)[1]; }

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1) return upper;
    return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + mid));
}

}  // namespace bench
