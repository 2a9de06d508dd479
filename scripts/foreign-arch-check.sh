#!/usr/bin/env bash
# A GPU this build of tcsparse has no code for (issue 38, item 13; docs/migration.md):
# builds libtcsparse for another architecture than the GPU's (FOREIGN_ARCH, default
# 80-real: SASS for sm_80 only, which an sm_90 GPU cannot run) into build-foreign/, then
# runs tests/swapin/foreign_arch.sh: an unmodified cuSPARSE program (solver_style_cusparse)
# with the shim preloaded over that library must pass, every product forwarded to cuSPARSE.
#
#   scripts/foreign-arch-check.sh build          (any machine with nvcc) the library only
#   scripts/foreign-arch-check.sh run SHIM PROGRAM   (GPU machine) the check, with the shim
#        and program of an ordinary build (default .prebuilt/lib/libtcsparse_cusparse.so.0
#        and .prebuilt/bin/solver_style_cusparse)
# JOBS (default: the cores) compile at once.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
dir=$root/build-foreign
arch=${FOREIGN_ARCH:-80-real}
case "${1:-}" in
  build)
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES="$arch" -DTCS_BUILD_TESTS=OFF -DTCS_BUILD_BENCH=OFF -DTCS_BUILD_EXAMPLES=OFF -DTCS_BUILD_SHIM=OFF \
      ${CMAKE_ARGS:-} > "$dir.configure.log" 2>&1 || { tail -n 20 "$dir.configure.log"; exit 1; }
    t0=$(date +%s)
    cmake --build "$dir" --target tcsparse -j "${JOBS:-$(nproc)}" > "$dir.build.log" 2>&1 ||
      { tail -n 30 "$dir.build.log"; exit 1; }
    echo "foreign-arch-check: libtcsparse for $arch built in $(( $(date +%s) - t0 ))s: $dir/lib"
    ;;
  run)
    shim=${2:-$root/.prebuilt/lib/libtcsparse_cusparse.so.0}
    program=${3:-$root/.prebuilt/bin/solver_style_cusparse}
    TCS_FOREIGN_ARCH_LIBDIR=$dir/lib sh "$root/tests/swapin/foreign_arch.sh" "$shim" "$program"
    ;;
  *) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0" >&2; exit 2 ;;
esac
