// See cuda_runtime.h: the emulation's runtime.
#pragma once
#include "cuda_runtime.h"
