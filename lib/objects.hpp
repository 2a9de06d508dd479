// The structs behind the public opaque handles. Only lib/ sees them. A handle is not
// the struct's address but an entry of the table of live objects (lib/live_table.h
// says why), so a destroyed object, a stale handle or one of the wrong kind is reported
// as a status and never touched: publish() makes the handle, live<T>() resolves it,
// withdraw() ends it.
#pragma once

#include "tcsparse.h"

#include "core/device.hpp"
#include "spgemm/plan.hpp"
#include "spmm/spmm.hpp"

#include <cstdint>
#include <memory>
#include <new>

struct tcsContext {
    static constexpr unsigned kKind = 0x11u;  // the low byte of its handles
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

// The memo of matA, replaced whole and read whole by atomic operations on a pointer to
// an immutable memo: threads that share one matA, each with its own handle and buffer,
// then see an analysis together with the buffer it was made in, never a mix of two, and
// a reader keeps the memo it took alive while another thread replaces it.
class tcsSpMMActive {
public:
    void publish(std::shared_ptr<const tcsSpMMMemo> memo) const {
        std::atomic_store(&memo_, std::move(memo));
    }
    std::shared_ptr<const tcsSpMMMemo> get() const { return std::atomic_load(&memo_); }
    // The memo when preprocess last analysed into `buffer` for `key`, else nullptr.
    std::shared_ptr<const tcsSpMMMemo> active(const void* buffer, std::uint64_t key) const {
        auto memo = get();
        if (buffer == nullptr || memo == nullptr || memo->buffer != buffer || memo->key != key)
            return nullptr;
        return memo;
    }

private:
    mutable std::shared_ptr<const tcsSpMMMemo> memo_;
};

struct tcsSpMatDescr {
    static constexpr unsigned kKind = 0x13u;  // the low byte of its handles
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
    tcsSpMMActive spmm_memo;                     // written by preprocess, as in cuSPARSE
};

struct tcsDnMatDescr {
    static constexpr unsigned kKind = 0x15u;  // the low byte of its handles
    bool is_const = false;
    std::int64_t rows = 0, cols = 0, ld = 0;
    void* values = nullptr;
    cudaDataType value_type = CUDA_R_32F;
    tcsOrder_t order = TCS_ORDER_COL;
};

struct tcsDnVecDescr {
    static constexpr unsigned kKind = 0x17u;  // the low byte of its handles
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
    static constexpr unsigned kKind = 0x19u;  // the low byte of its handles
    enum class stage { created, estimated, computed, copied };

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

namespace tcs::api {

// The table's side (lib/live_objects.cpp).
std::uint64_t add_live(void* object, unsigned kind);  // 0: out of memory
void* find_live(const void* handle, unsigned kind);
void* remove_live(const void* handle, unsigned kind);

// The handle of a new object; deletes it and throws ALLOC_FAILED when the table is full.
template <class T> T* publish(T* object) {
    const std::uint64_t handle = add_live(object, T::kKind);
    if (handle == 0) {
        delete object;
        throw std::bad_alloc();
    }
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(handle));
}
// The object of a live handle of T's kind, or nullptr.
template <class T> T* live(const T* handle) {
    return static_cast<T*>(find_live(handle, T::kKind));
}
// Ends a live handle and gives its object to the caller (to delete), or nullptr when
// the handle was not live: of two threads destroying one object, one gets it.
template <class T> T* withdraw(const T* handle) {
    return static_cast<T*>(remove_live(handle, T::kKind));
}

}  // namespace tcs::api
