/* cudaDataType and libraryPropertyType with CUDA's values, for the emulation. */
#ifndef TCS_EMU_LIBRARY_TYPES_H_
#define TCS_EMU_LIBRARY_TYPES_H_

typedef enum cudaDataType_t {
    CUDA_R_16F = 2,
    CUDA_R_32F = 0,
    CUDA_R_64F = 1,
    CUDA_R_16BF = 14,
    CUDA_C_32F = 4,
    CUDA_C_64F = 5
} cudaDataType;

typedef enum libraryPropertyType_t { MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL } libraryPropertyType;

#endif
