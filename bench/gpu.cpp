#include "gpu.hpp"

#include <memory>

#include "libraries.hpp"
#include "mma_rate.hpp"

namespace bench {

namespace {

struct handles {
    tcsHandle_t tcs = nullptr;
    cusparseHandle_t cusparse = nullptr;
};

std::unique_ptr<gpu_state> state;
handles libs;

// Median of timed cudaMemcpy D2D of 1 GiB (20x the H100's L2, so DRAM-bound), counting
// read + write: the bandwidth a streaming kernel can reach, the SpMM memory floor.
double measure_copy_bandwidth(cudaStream_t stream) {
    const std::size_t bytes = std::size_t(1) << 30;
    device_buffer src = allocate_untracked(bytes);
    device_buffer dst = allocate_untracked(bytes);
    check_cuda(cudaMemsetAsync(src.get(), 0x3c, bytes, stream), "cudaMemsetAsync");
    event_timer timer;
    std::vector<double> seconds;
    for (int i = 0; i < 12; ++i) {
        timer.start(stream);
        check_cuda(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpyAsync");
        const double ms = timer.stop_ms(stream);
        if (i >= 2) seconds.push_back(ms * 1e-3);  // the first two are warm-up
    }
    return 2.0 * double(bytes) / median(seconds);
}

// Overwrites the scratch buffer (twice the L2) on the stream.
void flush(const device_buffer& scratch, cudaStream_t stream) {
    check_cuda(cudaMemsetAsync(scratch.get(), 0, scratch.bytes(), stream),
               "cudaMemsetAsync (L2 flush)");
}

// Median time of a 4-byte cudaMemsetAsync (one small kernel), each after the L2 flush
// and between the events of a sample timed as SpMM's are (the stream held while they
// are queued): what any one-kernel call costs however little it moves, so the SpMM
// tables can show time over (floor + launch) beside time over the floor, which no small
// matrix can come near.
double measure_launch(cudaStream_t stream, const device_buffer& scratch) {
    device_buffer target = allocate_untracked(256);
    event_timer timer;
    stream_hold hold;
    std::vector<double> seconds;
    for (int i = 0; i < 23; ++i) {
        flush(scratch, stream);
        hold.hold(stream);
        timer.start(stream);
        check_cuda(cudaMemsetAsync(target.get(), 0, 4, stream), "cudaMemsetAsync");
        timer.stop(stream);
        hold.release();
        const double ms = timer.elapsed_ms();
        if (i >= 3) seconds.push_back(ms * 1e-3);  // the first three are warm-up
    }
    return median(seconds);
}

// Median of timed launches of the MMA probe (bench/mma_rate.cu) that fill every SM with
// 32 warps, each with 4 chains of MMAs: the rate the tensor cores reach with the
// instruction tcsparse issues, the roofline's compute floor.
double measure_mma_rate(mma_kind kind, const cudaDeviceProp& props, cudaStream_t stream) {
    device_buffer sink = allocate_untracked(sizeof(double));
    const int blocks = 4 * props.multiProcessorCount, warps = 8, iterations = 4096;
    event_timer timer;
    std::vector<double> rates;
    for (int i = 0; i < 7; ++i) {
        cudaError_t error = cudaSuccess;
        timer.start(stream);
        const double flops = launch_mma_probe(kind, blocks, warps, iterations,
                                              static_cast<double*>(sink.get()), stream, &error);
        const double ms = timer.stop_ms(stream);
        check_cuda(error, "MMA probe launch");
        if (flops == 0) return 0.0;
        if (i >= 2) rates.push_back(flops / (ms * 1e-3));  // the first two are warm-up
    }
    return median(rates);
}

}  // namespace

gpu_state& gpu() {
    if (state) return *state;
    auto s = std::make_unique<gpu_state>();
    int device = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    check_cuda(cudaGetDeviceProperties(&s->props, device), "cudaGetDeviceProperties");
    check_cuda(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check_status<tcsparse_lib>(tcsCreate(&libs.tcs), "Create");
    check_status<tcsparse_lib>(tcsSetStream(libs.tcs, s->stream), "SetStream");
    check_status<cusparse_lib>(cusparseCreate(&libs.cusparse), "Create");
    check_status<cusparse_lib>(cusparseSetStream(libs.cusparse, s->stream), "SetStream");
    s->l2_scratch = allocate_untracked(2 * std::size_t(s->props.l2CacheSize));
    s->copy_bandwidth = measure_copy_bandwidth(s->stream);
    s->launch_seconds = measure_launch(s->stream, s->l2_scratch);
    s->dmma_flops = measure_mma_rate(mma_kind::dmma_f64, s->props, s->stream);
    s->hmma_flops = measure_mma_rate(mma_kind::hmma_f16_f32, s->props, s->stream);
    state = std::move(s);
    return *state;
}

void flush_l2() {
    gpu_state& g = gpu();
    flush(g.l2_scratch, g.stream);
}

void release_gpu() {
    if (!state) return;
    tcsDestroy(libs.tcs);
    cusparseDestroy(libs.cusparse);
    libs = handles{};
    cudaStreamSynchronize(state->stream);
    cudaStream_t stream = state->stream;
    state.reset();
    cudaStreamDestroy(stream);
}

tcsHandle_t tcsparse_lib::handle() {
    gpu();
    return libs.tcs;
}

cusparseHandle_t cusparse_lib::handle() {
    gpu();
    return libs.cusparse;
}

}  // namespace bench
