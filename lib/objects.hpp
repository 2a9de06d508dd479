// The structs behind the public opaque handles. Only lib/ sees them. Each carries a
// magic number so that a destroyed object or a pointer of the wrong kind is reported
// as a status instead of being used.
#pragma once

#include "tcsparse.h"

#include "core/device.hpp"
#include "spgemm/plan.hpp"
#include "spmm/spmm.hpp"

#include <cstdint>
#include <memory>

struct tcsContext {
    static constexpr std::uint32_t kMagic = 0x7C5C0111u;
    std::uint32_t magic = kMagic;
    cudaStream_t stream = nullptr;
    tcsPointerMode_t pointer_mode = TCS_POINTER_MODE_HOST;
    tcsMath_t math_mode = TCS_DEFAULT_MATH;
    tcs::device_info device;
    void* check_scratch = nullptr;  // non-null: the products check their sparse inputs
};

// What tcsSpMM_preprocess remembers on matA: the buffer it analysed into, and the
// parameters that analysis depends on.
struct tcsSpMMMemo {
    const void* buffer = nullptr;
    std::uint64_t key = 0;
    tcs::spmm::analysis found;  // what the analysis counted (cpp/spmm/spmm.hpp)
};

struct tcsSpMatDescr {
    static constexpr std::uint32_t kMagic = 0x7C5C0222u;
    std::uint32_t magic = kMagic;
    bool is_const = false;
    tcsFormat_t format = TCS_FORMAT_CSR;
    std::int64_t rows = 0, cols = 0, nnz = 0;  // BSR: block rows, block columns, blocks
    void* offsets = nullptr;  // CSR/BSR row offsets, COO row indices
    void* columns = nullptr;
    void* values = nullptr;
    tcsIndexType_t offsets_type = TCS_INDEX_32I;
    tcsIndexType_t columns_type = TCS_INDEX_32I;
    tcsIndexBase_t base = TCS_INDEX_BASE_ZERO;
    cudaDataType value_type = CUDA_R_32F;
    std::int64_t row_block = 1, col_block = 1;  // BSR only
    tcsOrder_t block_order = TCS_ORDER_ROW;      // BSR only
    mutable tcsSpMMMemo spmm_memo;               // written by preprocess, as in cuSPARSE
};

struct tcsDnMatDescr {
    static constexpr std::uint32_t kMagic = 0x7C5C0333u;
    std::uint32_t magic = kMagic;
    bool is_const = false;
    std::int64_t rows = 0, cols = 0, ld = 0;
    void* values = nullptr;
    cudaDataType value_type = CUDA_R_32F;
    tcsOrder_t order = TCS_ORDER_COL;
};

struct tcsDnVecDescr {
    static constexpr std::uint32_t kMagic = 0x7C5C0555u;
    std::uint32_t magic = kMagic;
    bool is_const = false;
    std::int64_t size = 0;
    void* values = nullptr;
    cudaDataType value_type = CUDA_R_32F;
};

// The structure of an SpGEMM input as the analysis saw it; compute and copy must see
// the same (new values are allowed, a new pattern is not).
struct tcsSpGEMMShape {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    const void* offsets = nullptr;
    const void* columns = nullptr;
    tcsIndexBase_t base = TCS_INDEX_BASE_ZERO;
    cudaDataType value_type = CUDA_R_32F;
    bool operator==(const tcsSpGEMMShape& o) const {
        return rows == o.rows && cols == o.cols && nnz == o.nnz && offsets == o.offsets &&
               columns == o.columns && base == o.base && value_type == o.value_type;
    }
};

// The SpGEMMreuse protocol (lib/spgemm_reuse.cpp), kept apart from the plain one so
// that neither can leave the other's plan and buffers inconsistent.
struct tcsSpGEMMReuse {
    enum class stage { none, estimated, counted, structured };
    stage at = stage::none;
    tcsSpGEMMAlg_t alg = TCS_SPGEMM_DEFAULT;
    std::unique_ptr<tcs::spgemm::plan> plan;
    void* buffer1 = nullptr;        // the analysis, until nnz copies it into buffer4
    std::size_t analysis_bytes = 0;  // of buffer1, as the plan carves it
    void* analysis = nullptr;       // buffer4: the analysis, then the plan's buffer2
    void* stage2 = nullptr;         // inside buffer4
    void* scratch_values = nullptr; // buffer3, until copy
    tcsSpGEMMShape a, b;
    std::int64_t nnz_c = 0;
};

struct tcsSpGEMMDescr {
    static constexpr std::uint32_t kMagic = 0x7C5C0444u;
    enum class stage { created, estimated, computed, copied };

    std::uint32_t magic = kMagic;
    stage at = stage::created;
    tcsSpGEMMAlg_t alg = TCS_SPGEMM_DEFAULT;
    tcs::spgemm::algorithm kind = tcs::spgemm::algorithm::automatic;  // what alg runs
    std::unique_ptr<tcs::spgemm::plan> plan;
    void* buffer1 = nullptr;  // remembered until copy, as in cuSPARSE
    void* buffer2 = nullptr;
    tcsSpGEMMShape a, b;
    std::int64_t c_rows = 0, c_cols = 0;
    tcsSpGEMMReuse reuse;
};
