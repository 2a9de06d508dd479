#!/usr/bin/env bash
# PETSc with CUDA, unmodified, on tcsparse through the cuSPARSE swap-in (issue 28;
# docs/petsc.md). PETSc's source and MPICH come from PyPI; nothing is fetched on the GPU
# machine. Everything downloaded or built lives in ignored folders: .petsc/ (downloads,
# PETSc's build, the programs) and .petsc-bundle/ (the two files the GPU machine needs).
#
#   scripts/petsc.sh fetch      (any machine with PyPI) PETSc's sdist, checked against
#        PyPI's sha256, and the MPICH wheel, into .petsc/
#   scripts/petsc.sh build      configure and make PETSc (CUDA for sm_90, optimised, no
#        Fortran, 32-bit indices, shared; nothing downloaded), then the programs. Needs
#        nvcc, no GPU. JOBS=2 by default (MAKE_LOAD lifts PETSc's load limit)
#   scripts/petsc.sh programs   only the programs: PETSc's src/ksp/ksp/tutorials/ex45.c
#        (3D Laplacian, KSP), src/mat/tests/ex94.c (MatMatMult/MatPtAP checks) and ex237.c
#        (sparse x dense), and scripts/petsc/tcs_petsc_products.c (product norms)
#   scripts/petsc.sh stage [BUILD_DIR]   packs PETSc's library, MPICH, BLAS/LAPACK and the
#        programs, stripped, into .petsc-bundle/petsc-bundle.tar.xz, then stage-tcsparse
#   scripts/petsc.sh stage-tcsparse [BUILD_DIR]   tcsparse's library and shim from
#        BUILD_DIR (default build/) or .prebuilt/lib into .petsc-bundle/tcsparse.tar.xz
#        (carry .petsc-bundle: both files)
#   scripts/petsc.sh run [--cases LIST] [--ranks LIST] [--grid N] [--no-trace] [--trace-only]
#        [--quick] [--bind-gpus]
#        (GPU machine) unpacks the bundle into /tmp, runs every case with plain cuSPARSE
#        and with the shim preloaded ($TCS_SHIM, else the bundle's, else
#        .prebuilt/lib/libtcsparse_cusparse.so.0), 1 and 2 ranks, -log_view each, then
#        once more with TCS_LOG_LEVEL=2 ($PETSC_TRACE_LEVEL; 3 adds each call's host time
#        and SpGEMM's shapes) for the calls the shim ran and forwarded (--trace-only: only
#        that run), and
#        writes the logs and summary.md to $OUT (default petsc-out/; with
#        TCS_PACK_OUT=1 the logs end in $OUT/logs.tgz, scripts/pack-out.sh)
#   scripts/petsc.sh cpu-check  (any machine) the same programs with CPU types
#        (-mat_type aij -vec_type standard), plain only: the MPI launch, the arguments, the
#        converter and the summary, all that can be checked without a GPU
#
# --grid N: the Laplacians of products and gamg are N^3 (default 100). --ranks takes any
# counts for products and gamg: on a machine of several GPUs PETSc gives rank r the GPU
# r mod (GPUs), so "1 2 4" on 4 GPUs is one rank per GPU (issue 29). PETSC_RUN_LIMIT
# (default 360) and PETSC_RUN_CAP (default 150) are the seconds for all timed runs and
# for each run.
# Cases (--cases, comma-separated; default all): products (tcs_petsc_products on a real
# matrix and on a 100^3 Laplacian: MatMatMult and MatPtAP with reuse, MatMult),
# ex94 (PETSc's product test on nos3 and a 12^3 Laplacian), gamg (ex45, 100^3 = 10^6
# unknowns, CG + GAMG), spmm (ex237, 1 rank). Matrices: $TCS_MATRIX_DIR, else
# ../shared/matrices, else .matrices/.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
P=$root/.petsc
B=$root/.petsc-bundle
PETSC_VERSION=${PETSC_VERSION:-3.26.1}
PETSC_DIR=$P/petsc-$PETSC_VERSION
PETSC_ARCH=arch-tcs-cuda
MPI_CACHE=$P
MPI=$P/mpi
. "$root/scripts/mpi-common.sh"   # MPICH_VERSION, mpi_fetch, mpi_unpack, mpi_stage
CUDA_DIR=${CUDA_DIR:-/usr/local/cuda}
JOBS=${JOBS:-2}
PROGRAMS="ex45 ex94 ex237 tcs_petsc_products"
MATRICES="Dubcova1 nos3"   # the real matrices of the run (products and spmm, ex94)

die() { echo "petsc.sh: $*" >&2; exit 1; }

fetch() {
  mkdir -p "$P"
  local tarball=$P/petsc-$PETSC_VERSION.tar.gz
  if [ ! -f "$tarball" ]; then
    # pip download would build the sdist's metadata (it runs PETSc's configure): take the
    # file from PyPI's JSON API instead, and check it against the sha256 PyPI gives.
    python3 - "$PETSC_VERSION" "$tarball" <<'EOF' || die "PETSc download failed"
import hashlib, json, sys, urllib.request
version, dest = sys.argv[1], sys.argv[2]
meta = json.load(urllib.request.urlopen("https://pypi.org/pypi/petsc/json"))
files = meta["releases"].get(version) or []
sdist = [u for u in files if u["packagetype"] == "sdist"][0]
url = sdist["url"]
if "://" not in url:  # a mirror's relative link: the file is on PyPI's file host
    url = "https://files.pythonhosted.org/packages/" + url.split("packages/")[-1]
data = urllib.request.urlopen(url).read()
digest = hashlib.sha256(data).hexdigest()
if digest != sdist["digests"]["sha256"]:
    sys.exit(f"sha256 {digest} != PyPI's {sdist['digests']['sha256']}")
open(dest, "wb").write(data)
print(f"{sdist['filename']}: {len(data)} bytes, sha256 {digest}")
EOF
  fi
  mpi_fetch || die "MPICH download failed"
  for lib in liblapack.so.3 libblas.so.3 libgfortran.so.5; do
    [ -e "/usr/lib/x86_64-linux-gnu/$lib" ] ||
      echo "petsc.sh: $lib missing: apt-get install liblapack-dev libblas-dev libgfortran5" >&2
  done
  ls -la "$P"/*.tar.gz "$P"/*.whl
}

build() {
  [ -d "$PETSC_DIR" ] || tar -xzf "$P/petsc-$PETSC_VERSION.tar.gz" -C "$P" || die "run fetch first"
  [ -x "$MPI/bin/mpicc" ] || mpi_unpack || die "MPICH unpack failed (run fetch)"
  [ -x "$CUDA_DIR/bin/nvcc" ] || die "no nvcc in $CUDA_DIR (set CUDA_DIR)"
  local lapack blas
  lapack=${LAPACK_LIB:-$(readlink -f /usr/lib/x86_64-linux-gnu/liblapack.so.3)}
  blas=${BLAS_LIB:-$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3)}
  [ -f "$lapack" ] && [ -f "$blas" ] ||
    die "no BLAS/LAPACK: apt-get install liblapack-dev, or LAPACK_LIB=... BLAS_LIB=... (files)"
  (
    cd "$PETSC_DIR" || exit 1
    export PETSC_DIR PETSC_ARCH
    if [ ! -f "$PETSC_ARCH/lib/petsc/conf/petscvariables" ]; then
      # --with-cuda-arch: nvcc compiles for sm_90 without a GPU and configure runs no
      # CUDA program. BLAS/LAPACK: the system's reference libraries (stage carries them).
      nice -n 10 python3 ./configure PETSC_ARCH=$PETSC_ARCH \
        --with-cc="$MPI/bin/mpicc" --with-cxx="$MPI/bin/mpicxx" --with-fc=0 \
        --with-mpiexec="$MPI/bin/mpiexec" \
        --with-debugging=0 --with-shared-libraries=1 --with-64-bit-indices=0 \
        COPTFLAGS=-O2 CXXOPTFLAGS=-O2 CUDAOPTFLAGS=-O2 \
        --with-cuda=1 --with-cuda-dir="$CUDA_DIR" --with-cuda-arch=90 \
        --with-blaslapack-lib="$lapack $blas" \
        --with-x=0 --with-ssl=0 --with-zlib=0 --with-hwloc=0 --with-valgrind=0 \
        --with-make-np="$JOBS" || exit 1
    fi
    # MAKE_LOAD: PETSc's make starts no job while the load is above it (2 here), which
    # on a shared machine means one job; -j$JOBS under nice is the limit instead.
    nice -n 10 make PETSC_DIR="$PETSC_DIR" PETSC_ARCH=$PETSC_ARCH MAKE_NP="$JOBS" \
      MAKE_LOAD="${MAKE_LOAD:-64}" all || exit 1
  ) || die "PETSc build failed (see $PETSC_DIR/configure.log, make.log)"
  programs
}

programs() {
  local out=$P/programs inc lib
  [ -f "$PETSC_DIR/$PETSC_ARCH/lib/libpetsc.so" ] || die "PETSc is not built: run build"
  mkdir -p "$out"
  inc="-I$PETSC_DIR/include -I$PETSC_DIR/$PETSC_ARCH/include -I$CUDA_DIR/include"
  # $ORIGIN/../lib: the bundle's layout (bin/, lib/); the build tree's lib for use here.
  lib="-L$PETSC_DIR/$PETSC_ARCH/lib -Wl,-rpath,\$ORIGIN/../lib -Wl,-rpath,$PETSC_DIR/$PETSC_ARCH/lib -lpetsc -lm"
  local src
  for p in $PROGRAMS; do
    case $p in
      ex45) src=$PETSC_DIR/src/ksp/ksp/tutorials/ex45.c ;;
      ex94|ex237) src=$PETSC_DIR/src/mat/tests/$p.c ;;
      tcs_petsc_products) src=$root/scripts/petsc/tcs_petsc_products.c ;;
    esac
    nice -n 10 "$MPI/bin/mpicc" -O2 -Wall $inc "$src" -o "$out/$p" $lib || die "$p did not build"
  done
  ls -la "$out"
}

stage() {
  local s=$P/bundle.tmp/petsc-bundle
  [ -x "$P/programs/ex45" ] || die "no programs: run build"
  rm -rf "$P/bundle.tmp" && mkdir -p "$s/bin" "$s/lib" "$B"
  local so
  so=$(readlink -f "$PETSC_DIR/$PETSC_ARCH/lib/libpetsc.so")
  cp "$so" "$s/lib/" && ln -s "$(basename "$so")" "$s/lib/$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"
  for p in $PROGRAMS; do cp "$P/programs/$p" "$s/bin/"; done
  mpi_stage "$s" || die "MPICH files missing"
  for l in liblapack.so.3 libblas.so.3 libgfortran.so.5 libquadmath.so.0; do
    cp -L "/usr/lib/x86_64-linux-gnu/$l" "$s/lib/$l"
  done
  strip --strip-unneeded "$s"/lib/*.so* "$s"/bin/* 2>/dev/null
  # The run's two real matrices, for a machine without ../shared/matrices (1 MB).
  mkdir -p "$s/matrices"
  for m in $MATRICES; do cp "$(matrix_dir)/$m.mtx.gz" "$s/matrices/" || die "no $m.mtx.gz"; done
  {
    echo "PETSc $PETSC_VERSION (PyPI sdist), MPICH $MPICH_VERSION (PyPI wheel), built $(date -u +%FT%TZ)"
    echo "tcsparse revision $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"
    echo "nvcc: $("$CUDA_DIR/bin/nvcc" --version | tail -n 1)"
    grep -m1 -E "^Configure Options" "$PETSC_DIR/$PETSC_ARCH/lib/petsc/conf/configure.log" 2>/dev/null ||
      grep -m1 "CONFIGURE_OPTIONS" "$PETSC_DIR/$PETSC_ARCH/include/petscconf.h"
    echo "cuSPARSE symbols libpetsc needs:"
    nm -D --undefined-only "$s/lib/$(basename "$so")" | awk '/cusparse/ {print "  " $2}'
  } > "$s/MANIFEST"
  tar -C "$P/bundle.tmp" -cf - petsc-bundle | xz -9 -T2 > "$B/petsc-bundle.tar.xz"
  rm -rf "$P/bundle.tmp"
  du -sh "$B/petsc-bundle.tar.xz"
  stage_tcsparse "${1:-build}" || true
  du -sh "$B"
}

# tcsparse's library and shim for the run, from BUILD_DIR (default build) or, failing
# that, .prebuilt/lib (scripts/gpu-prebuilt.sh stage): .petsc-bundle/tcsparse.tar.xz.
# Separate from PETSc's bundle, which a tcsparse change does not touch.
stage_tcsparse() {
  local build=${1:-build} t=$P/tcsparse.tmp/tcsparse src="" so real
  for d in "$build/shim" "$root/.prebuilt/lib"; do
    [ -e "$d/libtcsparse_cusparse.so.0" ] && { src=$d; break; }
  done
  [ -n "$src" ] || { echo "petsc.sh: no libtcsparse_cusparse.so.0 in $build/shim or .prebuilt/lib: build tcsparse, then stage-tcsparse BUILD_DIR" >&2; return 1; }
  rm -rf "$P/tcsparse.tmp" && mkdir -p "$t" "$B"
  for so in "$src/libtcsparse_cusparse.so.0" "$build/lib/libtcsparse.so.0" "$src/libtcsparse.so.0"; do
    [ -e "$so" ] || continue
    real=$(readlink -f "$so")
    cp "$real" "$t/" && ln -sf "$(basename "$real")" "$t/$(basename "$so")"
  done
  [ -e "$t/libtcsparse.so.0" ] || { echo "petsc.sh: no libtcsparse.so.0 beside the shim" >&2; return 1; }
  git -C "$root" rev-parse --short HEAD > "$t/REVISION" 2>/dev/null
  tar -C "$P/tcsparse.tmp" -cf - tcsparse | xz -9 -T2 > "$B/tcsparse.tar.xz"
  rm -rf "$P/tcsparse.tmp"
  du -sh "$B/tcsparse.tar.xz"
}

# PETSc's CUDA types for every GPU run, and ex45's GAMG solve of an N^3 Laplacian (the
# case `run` times and `profile` profiles).
gpu_types="-mat_type aijcusparse -vec_type cuda -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0"
gamg_args() { echo "-da_grid_x $1 -da_grid_y $1 -da_grid_z $1 -ksp_type cg -pc_type gamg -ksp_rtol 1e-8"; }

# The GPU time of each kernel of one single-rank run of a case, plain and preloaded, from
# Nsight Compute (only kernels whose name matches PETSC_PROFILE_KERNELS, default the
# SpMV and SpGEMM kernels of both libraries): where the preloaded run's time goes.
#   scripts/petsc.sh profile [--grid N]      (GPU machine) summaries in $OUT/profile-*.txt
profile() {
  local grid=100
  while [ $# -gt 0 ]; do
    case "$1" in --grid) grid=$2; shift ;; *) die "unknown option $1" ;; esac
    shift
  done
  local out=${OUT:-$root/petsc-out}
  mkdir -p "$out"
  unpack_bundle
  local shim=${TCS_SHIM:-$R/tcsparse/libtcsparse_cusparse.so.0}
  export LD_LIBRARY_PATH="$(dirname "$shim"):$LD_LIBRARY_PATH"
  local kernels=${PETSC_PROFILE_KERNELS:-regex:csrmv|spmv|SpMV|tcs::}
  # Run without mpiexec (MPICH's singleton start); the shim goes in through a wrapper
  # so that it joins, not replaces, what ncu itself preloads.
  printf '#!/bin/sh\nexport LD_PRELOAD="%s${LD_PRELOAD:+:$LD_PRELOAD}"\nexec "$@"\n' "$shim" > "$out/preload.sh"
  chmod +x "$out/preload.sh"
  local args
  read -r -a args <<< "$(gamg_args "$grid") $gpu_types -options_left 0"
  local mode
  for mode in ${PETSC_PROFILE_MODES:-plain tcs}; do
    local wrap=(); [ "$mode" = tcs ] && wrap=("$out/preload.sh")
    timeout "${PETSC_RUN_CAP:-150}" ncu --clock-control none --target-processes all \
      --kernel-name-base demangled --kernel-name "$kernels" --metrics gpu__time_duration.sum \
      --csv --log-file "$out/profile-$mode.csv" "${wrap[@]}" "$R/bin/ex45" "${args[@]}" \
      > "$out/profile-$mode.log" 2>&1
    echo "   profile $mode: exit $?"
    python3 "$root/scripts/petsc/ncu_sum.py" "$out/profile-$mode.csv" "gamg_lap$grid $mode" \
      | tee "$out/profile-$mode.txt"
  done
  rm -f "$out"/profile-*.csv
  "$root/scripts/pack-out.sh" "$out" profile-plain.txt profile-tcs.txt
}

# ---- running ----------------------------------------------------------------------

unpack_bundle() {  # -> $R (the unpacked bundle)
  R=${PETSC_BUNDLE_DIR:-/tmp/petsc-bundle}
  [ -f "$B/petsc-bundle.tar.xz" ] || die "no $B/petsc-bundle.tar.xz (stage it, carry .petsc-bundle)"
  local stamp; stamp=$(stat -c %s-%Y "$B/petsc-bundle.tar.xz")
  if [ ! -x "$R/bin/ex45" ] || [ "$(cat "$R/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$R" && mkdir -p "$(dirname "$R")"
    if command -v xz >/dev/null; then xz -dc "$B/petsc-bundle.tar.xz" | tar -C "$(dirname "$R")" -xf -
    else python3 -c "import sys,tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
           "$B/petsc-bundle.tar.xz" "$(dirname "$R")"; fi
    [ "$(dirname "$R")/petsc-bundle" = "$R" ] || mv "$(dirname "$R")/petsc-bundle" "$R"
    echo "$stamp" > "$R/.stamp"
  fi
  if [ -f "$B/tcsparse.tar.xz" ]; then
    rm -rf "$R/tcsparse" && xz -dc "$B/tcsparse.tar.xz" | tar -C "$R" -xf -
  fi
  export LD_LIBRARY_PATH="$R/lib:$R/lib/mpich:$CUDA_DIR/lib64:$CUDA_DIR/lib:${LD_LIBRARY_PATH:-}"
  export PATH="$R/bin:$PATH"
  export HYDRA_LAUNCHER=fork   # one node: hydra forks its proxy, no ssh
}

matrix_dir() {
  if [ -n "${TCS_MATRIX_DIR:-}" ]; then echo "$TCS_MATRIX_DIR"
  elif [ -d "$root/../shared/matrices" ]; then echo "$root/../shared/matrices"
  else echo "$root/.matrices"; fi
}

run() {
  local cases=products,ex94,gamg,spmm ranks="1 2" trace=1 quick=0 cpu=0 grid="" bind=0 timed=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --bind-gpus) bind=1 ;;
      --trace-only) timed=0 ;;
      --cases) cases=$2; shift ;;
      --ranks) ranks=$2; shift ;;
      --grid) grid=$2; shift ;;
      --no-trace) trace=0 ;;
      --quick) quick=1 ;;
      --cpu) cpu=1 ;;
      *) die "unknown option $1" ;;
    esac
    shift
  done
  local out=${OUT:-$root/petsc-out}
  mkdir -p "$out"
  unpack_bundle
  local data=$out/data
  mkdir -p "$data"
  local mdir; mdir=$(matrix_dir)
  [ -f "$mdir/Dubcova1.mtx.gz" ] || mdir=$R/matrices

  # The shim: $TCS_SHIM, else the bundle's (stage-tcsparse), else scripts/gpu-prebuilt.sh's.
  local shim=${TCS_SHIM:-}
  if [ -z "$shim" ]; then
    shim=$R/tcsparse/libtcsparse_cusparse.so.0
    [ -e "$shim" ] || shim=$root/.prebuilt/lib/libtcsparse_cusparse.so.0
  fi
  # With --cpu the preloaded runs check only that the shim loads into every rank and
  # changes nothing: CPU types make no cuSPARSE call.
  local modes="plain tcs"
  if [ ! -e "$shim" ]; then echo "petsc.sh: no shim at $shim: plain runs only" >&2; modes=plain
  else export LD_LIBRARY_PATH="$(dirname "$shim"):$LD_LIBRARY_PATH"; fi

  # Sizes. --quick: small, for a check of the whole run in seconds.
  local lap=100 lap94=12 real=Dubcova1 real94=nos3 reuse=3 mults=100
  [ $quick = 1 ] && lap=20 lap94=6 mults=10
  [ $cpu = 1 ] && [ $quick = 0 ] && lap=40
  [ -n "$grid" ] && lap=$grid

  # Matrices in PETSc's binary format.
  # (the converter and the summary are the checkout's, not the bundle's)
  local tools=$root/scripts/petsc
  python3 "$tools/mtx2petsc.py" "$mdir/$real.mtx.gz" "$data/$real.petsc" || die "no $mdir/$real.mtx.gz"
  python3 "$tools/mtx2petsc.py" "$mdir/$real94.mtx.gz" "$data/$real94.petsc" || die "no $mdir/$real94.mtx.gz"
  python3 "$tools/mtx2petsc.py" --laplace3d "$lap94" "$data/lap$lap94.petsc"

  local types=$gpu_types
  if [ $cpu = 1 ]; then
    types="-mat_type aij -vec_type standard -dm_mat_type aij -dm_vec_type standard -device_enable none"
    # No driver here: the toolkit's stub answers for libcuda.so.1 so that the programs load.
    if ! ldconfig -p | grep -q 'libcuda\.so\.1 '; then
      mkdir -p /tmp/petsc-cudastub && ln -sf "$CUDA_DIR/lib64/stubs/libcuda.so" /tmp/petsc-cudastub/libcuda.so.1
      export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:/tmp/petsc-cudastub"
    fi
  fi
  local common="$types -options_left 0"
  [ $cpu = 1 ] || common="$common -log_view_gpu_time"

  # name|ranks allowed|program and arguments
  local specs=()
  case ",$cases," in *,products,*)
    specs+=("products_$real|1 2|tcs_petsc_products -f $data/$real.petsc -reuse $reuse -mults $mults")
    specs+=("products_lap$lap|any|tcs_petsc_products -n $lap -reuse $reuse -mults $mults") ;; esac
  case ",$cases," in *,ex94,*)
    specs+=("ex94_$real94|1 2|ex94 -f0 $data/$real94.petsc -f1 $data/$real94.petsc")
    specs+=("ex94_lap$lap94|1 2|ex94 -f0 $data/lap$lap94.petsc -f1 $data/lap$lap94.petsc") ;; esac
  case ",$cases," in *,gamg,*)
    specs+=("gamg_lap$lap|any|ex45 $(gamg_args "$lap") -ksp_monitor -ksp_converged_reason") ;; esac
  case ",$cases," in *,spmm,*)
    local t=aijcusparse; [ $cpu = 1 ] && t=aij
    specs+=("spmm_$real|1|ex237 -f $data/$real.petsc -type $t -N 1,8,32 -trial 10 -check") ;; esac

  {
    echo "# PETSc on tcsparse: run of $(date -u +%FT%TZ)"
    echo
    echo "device: $(command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1 || echo none)"
    echo "shim: $( [ -e "$shim" ] && readlink -f "$shim" || echo none)"
    sed -n 1,4p "$R/MANIFEST"
    echo "libraries ex45 cannot find: $(ldd "$R/bin/ex45" | grep -c 'not found')"
  } > "$out/run-info.txt"
  ldd "$R/bin/ex45" | grep 'not found' >&2

  # --bind-gpus: each rank sees only GPU (rank mod GPUs) as its device 0. PETSc 3.26 on
  # two visible H200s aborted in PetscFinalize (its device-context pool, malloc
  # corruption) with plain cuSPARSE and with the shim alike; one visible GPU per rank is
  # also how MPI jobs are usually bound.
  local wrap=()
  if [ $bind = 1 ]; then
    wrap=("$(mpi_bind_wrapper "$out/bind-gpu.sh")")
    echo "ranks bound to GPUs: CUDA_VISIBLE_DEVICES = PMI_RANK mod $(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" >> "$out/run-info.txt"
  fi

  local t0; t0=$(date +%s)
  local limit=${PETSC_RUN_LIMIT:-360}   # seconds for all timed runs; then trace runs
  one() {  # label mode ranks log-level args...
    local label=$1 mode=$2 np=$3 level=$4; shift 4
    local tag=$label.$mode.np$np
    [ "$level" != 0 ] && tag=$label.trace.np$np
    # The shim goes into the ranks only (hydra's -genv), not into mpiexec.
    local envs=()
    [ "$mode" = tcs ] && envs=(-genv LD_PRELOAD "$shim" -genv TCS_LOG_LEVEL "$level")
    local left=$(( t0 + limit - $(date +%s) ))
    if [ "$left" -le 10 ]; then echo "   $tag: CUT (time limit)"; echo "cut" > "$out/$tag.rc"; return; fi
    [ "$left" -gt "${PETSC_RUN_CAP:-150}" ] && left=${PETSC_RUN_CAP:-150}
    local s1; s1=$(date +%s)
    # ex237 loads A as plain AIJ and converts it to each -type itself (it refuses an A
    # loaded as aijcusparse), so its A gets no -mat_type.
    local opts=$common
    [ "$1" = ex237 ] && opts=${common/-mat_type aijcusparse /}
    timeout "$left" "$R/bin/mpiexec" "${envs[@]}" -n "$np" ${wrap[@]+"${wrap[@]}"} "$@" $opts \
      -log_view ":$out/$tag.logview" > "$out/$tag.out" 2> "$out/$tag.err" < /dev/null
    local rc=$?
    echo $rc > "$out/$tag.rc"
    echo "   $tag: exit $rc ($(( $(date +%s) - s1 ))s)"
    [ $rc = 0 ] || tail -n 5 "$out/$tag.err" "$out/$tag.out" | sed 's/^/      /'
  }
  local spec label np_ok cmdline np mode
  for np in $ranks; do
    [ $timed = 1 ] || break
    for spec in "${specs[@]}"; do
      IFS='|' read -r label np_ok cmdline <<< "$spec"
      case " $np_ok " in *" $np "* | " any ") ;; *) continue ;; esac
      # Timed runs: TCS_LOG_LEVEL=0, nothing written per call; the traced runs below say
      # what failed and why, if anything does.
      for mode in $modes; do one "$label" "$mode" "$np" 0 $cmdline; done
    done
  done
  if [ $trace = 1 ] && [ "$modes" != plain ]; then
    limit=$(( limit + ${PETSC_TRACE_LIMIT:-90} ))
    for np in $ranks; do
      for spec in "${specs[@]}"; do
        IFS='|' read -r label np_ok cmdline <<< "$spec"
        case " $np_ok " in *" $np "* | " any ") ;; *) continue ;; esac
        one "$label" tcs "$np" "${PETSC_TRACE_LEVEL:-2}" $cmdline
      done
    done
  fi
  python3 "$tools/compare.py" "$out" > "$out/summary.md"
  local rc=$?
  cat "$out/summary.md"
  echo "== petsc.sh run: $(( $(date +%s) - t0 ))s, logs in $out"
  "$root/scripts/pack-out.sh" "$out" summary.md run-info.txt
  return $rc
}

cmd=${1:-}; shift || true
case "$cmd" in
  fetch) fetch ;;
  build) build ;;
  programs) programs ;;
  stage) stage "$@" ;;
  stage-tcsparse) stage_tcsparse "$@" ;;
  run) run "$@" ;;
  profile) profile "$@" ;;
  cpu-check) OUT=${OUT:-$root/petsc-out-cpu} run --cpu "$@" ;;
  *) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0" >&2; exit 2 ;;
esac
