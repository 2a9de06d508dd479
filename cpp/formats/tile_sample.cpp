// sample_tiles (bitmap_tiles.hpp): a density estimate from a few runs of panels, read
// back with small copies, for a decision that must cost far less than a conversion.
#include "core/error.hpp"
#include "formats/bitmap_tiles.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tcs::formats {
namespace {

// Entry i of raw index bytes `width` (4 or 8) wide, as 64-bit.
std::int64_t index_at(const unsigned char* raw, std::size_t width, std::int64_t i) {
    const unsigned char* at = raw + std::size_t(i) * width;
    if (width == 8) {
        std::int64_t v;
        std::memcpy(&v, at, 8);
        return v;
    }
    std::int32_t v;
    std::memcpy(&v, at, 4);
    return v;
}

// n entries of an index array of width `type`, from element `first` on, as 64-bit.
std::vector<std::int64_t> read_indices(const void* array, index_type type, std::int64_t first,
                                       std::int64_t n, cudaStream_t stream) {
    const std::size_t width = type == index_type::i64 ? 8 : 4;
    std::vector<unsigned char> raw(std::size_t(n) * width);
    const auto* src = static_cast<const unsigned char*>(array) + std::size_t(first) * width;
    check_cuda(cudaMemcpyAsync(raw.data(), src, raw.size(), cudaMemcpyDeviceToHost, stream),
               "tile sample: read indices");
    check_cuda(cudaStreamSynchronize(stream), "tile sample: read indices");
    std::vector<std::int64_t> out(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) out[std::size_t(i)] = index_at(raw.data(), width, i);
    return out;
}

}  // namespace

tile_sample sample_tiles(const csr_view& m, int runs, int panels, std::int64_t max_entries,
                         cudaStream_t stream) {
    tile_sample out;
    if (m.rows == 0 || m.nnz == 0 || runs < 1 || panels < 1) return out;
    const std::int64_t run_rows = std::min<std::int64_t>(m.rows, std::int64_t(panels) * kTileDim);
    // Runs at equal distances (a whole number of panels apart, centred), so that one
    // strided copy reads all their row offsets; one run in the middle where the matrix
    // is too short for them to be apart.
    const std::int64_t room = m.rows - run_rows;
    std::int64_t stride = room / runs;
    stride -= stride % kTileDim;
    const int read_runs = stride > run_rows ? runs : 1;
    if (read_runs == 1) stride = 0;
    std::int64_t first_row = read_runs == 1 ? room / 2 : stride / 2;
    first_row -= first_row % kTileDim;

    const std::size_t width = m.offsets == index_type::i64 ? 8 : 4;
    const std::size_t row_bytes = std::size_t(run_rows + 1) * width;
    const std::size_t pitch = read_runs == 1 ? row_bytes : std::size_t(stride) * width;
    std::vector<unsigned char> raw(row_bytes * std::size_t(read_runs));
    const auto* src = static_cast<const unsigned char*>(m.row_ptr) + std::size_t(first_row) * width;
    check_cuda(cudaMemcpy2DAsync(raw.data(), row_bytes, src, pitch, row_bytes, std::size_t(read_runs),
                                 cudaMemcpyDeviceToHost, stream),
               "tile sample: read row offsets");
    check_cuda(cudaStreamSynchronize(stream), "tile sample: read row offsets");

    std::vector<std::int64_t> tile_cols;
    for (int r = 0; r < read_runs; ++r) {
        std::vector<std::int64_t> offsets(std::size_t(run_rows) + 1);
        for (std::int64_t i = 0; i <= run_rows; ++i)
            offsets[std::size_t(i)] = index_at(&raw[std::size_t(r) * row_bytes], width, i);
        const std::int64_t begin = offsets[0] - m.base;
        std::int64_t end = offsets[std::size_t(run_rows)] - m.base;
        // Offsets that are not increasing within [0, nnz] describe no matrix the sample can
        // read; the conversion reports them, the sample skips the run.
        if (begin < 0 || end > m.nnz || end < begin) continue;
        end = std::min(end, begin + max_entries);
        if (end == begin) continue;
        const std::vector<std::int64_t> cols = read_indices(m.col_idx, m.columns, begin, end - begin, stream);
        for (std::int64_t p = 0; p < run_rows; p += kTileDim) {
            const std::int64_t last = std::min(p + kTileDim, run_rows);
            const std::int64_t pb = offsets[std::size_t(p)] - m.base, pe = offsets[std::size_t(last)] - m.base;
            if (pb < begin || pe > end || pe < pb) break;  // past the entries read
            tile_cols.clear();
            for (std::int64_t e = pb; e < pe; ++e) tile_cols.push_back((cols[std::size_t(e - begin)] - m.base) / kTileDim);
            std::sort(tile_cols.begin(), tile_cols.end());
            out.tiles += std::unique(tile_cols.begin(), tile_cols.end()) - tile_cols.begin();
            out.entries += pe - pb;
        }
    }
    return out;
}

}  // namespace tcs::formats
