// The emulated library of api_arguments_emulated and api_descriptors_emulated
// (api_emulated.cmake) computes nothing: in place of the CSR SpMM family's launchers
// (cpp/spmm/csr/multiply_*.cu, whose units compile every kernel of every element type,
// and single_*.cu), these stop the program, so a test that reaches a product fails
// instead of computing. csr_emulation runs the real launchers on the emulation.
#include "spmm/csr/product.hpp"

#include <cstdio>
#include <cstdlib>

namespace tcs::spmm::csr {
namespace {

[[noreturn]] void no_products(const char* type) {
    std::fprintf(stderr, "api_*_emulated: a CSR SpMM product of %s reached (not linked here)\n", type);
    std::abort();
}

}  // namespace

void multiply_f32(const product&) { no_products("fp32"); }
void multiply_f64(const product&) { no_products("fp64"); }
void multiply_f16(const product&) { no_products("fp16"); }
void multiply_bf16(const product&) { no_products("bf16"); }

}  // namespace tcs::spmm::csr
