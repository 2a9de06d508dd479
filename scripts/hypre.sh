#!/usr/bin/env bash
# hypre's BoomerAMG on the GPU, three ways, through its `ij` driver (issue 36;
# docs/hypre.md): hypre's own SpGEMM and SpMV kernels, vendor cuSPARSE (-mm_vendor 1
# -mv_vendor 1), and vendor with tcsparse's swap-in preloaded. hypre's source comes from
# a snapshot of its public repository (the commit is recorded), MPICH from PyPI
# (scripts/mpi-common.sh, shared with scripts/petsc.sh); nothing is fetched on the GPU
# machine. Downloads and the build live in .hypre/, the bundle in .hypre-bundle/.
#
#   scripts/hypre.sh fetch GIT_DIR   hypre's src/ at GIT_DIR's HEAD (a clone or a bare
#        snapshot) as .hypre/hypre-src.tar.gz with its commit in .hypre/COMMIT, and the
#        MPICH wheel
#   scripts/hypre.sh build    CMake: CUDA on (sm_$HYPRE_CUDA_ARCH, default 90), cuSPARSE
#        on, MPI on, Release, static library, then the ij driver. Needs nvcc, no GPU.
#        A second run reuses the configured build (ninja rebuilds nothing). JOBS
#        (default: the cores) compile at once. Prints where the time went.
#   scripts/hypre.sh stage [BUILD_DIR]   ij, MPICH and tcsparse's library and shim (from
#        BUILD_DIR, default build/, else .prebuilt/lib) into .hypre-bundle/ (carry it)
#   scripts/hypre.sh run [--problems LIST] [--ranks LIST] [--modes LIST] [--weak]
#        [--reps N] [--no-trace] [--trace-modes LIST]   (GPU machine) each problem in
#        each mode at each rank count, N times, one rank per GPU (CUDA_VISIBLE_DEVICES =
#        rank mod GPUs); then, unless --no-trace, each problem once more on one rank in
#        each mode (or those of --trace-modes) with every SpGEMM timed, and through the
#        shim at TCS_LOG_LEVEL=3 (each call tcsparse ran, with its shapes and host time).
#        Logs, hypre.json and summary.md in $OUT (default hypre-out/; TCS_PACK_OUT=1
#        packs the logs, scripts/pack-out.sh).
#
# Problems (--problems, comma-separated; names are KIND_N for an N^3 grid per GPU with
# --weak, in all without): lap27_N (-27pt), lap7_N (-laplacian), vardif_N (-vardifconv:
# variable-coefficient diffusion-convection), aniso_N (-laplacian -c 1 1 0.001),
# sys3_N (-sysL 3: a 3-unknown system, elasticity-like). Default:
# lap27_100,lap7_150,vardif_100,sys3_60. Modes: hypre, vendor, tcs (default all three),
# and tcs0: the shim the bundle was staged with, to compare a newer build given as
# TCS_SHIM (its folder holding libtcsparse.so.0 too) with the one before.
# Every run: BoomerAMG-PCG (-solver 1) with the driver's GPU defaults under -exec_device
# (PMIS coarsening, keep-transpose, RAP as two products, l1-Jacobi smoothing), ext+i
# interpolation with at most 4 entries a row (-interptype 6 -Pmx 4), aggressive
# coarsening on the first level (-agg_nl 1 -agg_interp 5), tolerance 1e-8.
# HYPRE_RUN_CAP (default 240) caps each run's seconds, HYPRE_RUN_LIMIT (default 480) all
# timed runs'.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
H=$root/.hypre
B=$root/.hypre-bundle
CUDA_DIR=${CUDA_DIR:-/usr/local/cuda}
JOBS=${JOBS:-$(nproc)}
ARCH=${HYPRE_CUDA_ARCH:-90}
MPI_CACHE=$H
MPI=$H/mpi
. "$root/scripts/mpi-common.sh"

die() { echo "hypre.sh: $*" >&2; exit 1; }
t_start=$(date +%s)
phase() { echo "== hypre.sh: $1 ($(( $(date +%s) - t_start ))s so far)"; }

fetch() {
  local git_dir=${1:-}
  [ -n "$git_dir" ] || die "usage: hypre.sh fetch GIT_DIR (a snapshot of hypre-space/hypre)"
  mkdir -p "$H"
  local commit; commit=$(git --git-dir="$git_dir" rev-parse HEAD 2>/dev/null ||
                         git -C "$git_dir" rev-parse HEAD) || die "$git_dir is not a git repository"
  # src/ alone: the driver and the library (docs, examples and the AUTOTEST suite stay out).
  (git --git-dir="$git_dir" archive --format=tar.gz --prefix=hypre/ "$commit" src 2>/dev/null ||
   git -C "$git_dir" archive --format=tar.gz --prefix=hypre/ "$commit" src) > "$H/hypre-src.tar.gz" ||
    die "git archive failed"
  { echo "$commit"; git --git-dir="$git_dir" log -1 --format='%cd %s' "$commit" 2>/dev/null; } > "$H/COMMIT"
  mpi_fetch || die "MPICH download failed"
  echo "hypre $(head -n 1 "$H/COMMIT"): $(du -h "$H/hypre-src.tar.gz" | cut -f1)"
}

build() {
  [ -f "$H/hypre-src.tar.gz" ] || die "no .hypre/hypre-src.tar.gz: run fetch first"
  [ -x "$CUDA_DIR/bin/nvcc" ] || die "no nvcc in $CUDA_DIR (set CUDA_DIR)"
  local t0; t0=$(date +%s)
  if [ ! -d "$H/hypre/src" ] || [ "$H/hypre-src.tar.gz" -nt "$H/hypre/src" ]; then
    rm -rf "$H/hypre" && tar -xzf "$H/hypre-src.tar.gz" -C "$H" && touch "$H/hypre/src"
  fi
  # The one change to hypre: a timer on its SpGEMM entry, off unless asked for.
  python3 "$root/scripts/hypre/spgemm_timer.py" "$H/hypre/src" || die "the SpGEMM timer did not apply"
  [ -x "$MPI/bin/mpicc" ] || mpi_unpack || die "MPICH unpack failed"
  phase "sources and MPICH ready ($(( $(date +%s) - t0 ))s)"
  local b=$H/build t1; t1=$(date +%s)
  if [ ! -f "$b/build.ninja" ]; then
    # Static library (hypre's default): ij is one binary. Fortran, examples and the
    # other drivers off; curand for hypre's GPU random numbers (PMIS), as its defaults.
    # No Umpire (not on PyPI): device memory through cudaMallocAsync, a stream-ordered
    # pool, so that setup does not pay a cudaMalloc per temporary. MPI's headers for
    # nvcc by hand: CMake drops mpicc's include folder as one the C compiler already has.
    CC="$MPI/bin/mpicc" CXX="$MPI/bin/mpicxx" cmake -S "$H/hypre/src" -B "$b" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DHYPRE_ENABLE_CUDA=ON -DHYPRE_ENABLE_CUSPARSE=ON \
      -DHYPRE_ENABLE_CUBLAS=ON -DHYPRE_ENABLE_CURAND=ON -DHYPRE_ENABLE_CUSOLVER=ON \
      -DHYPRE_ENABLE_MPI=ON -DMPI_C_COMPILER="$MPI/bin/mpicc" -DMPI_CXX_COMPILER="$MPI/bin/mpicxx" \
      -DMPICH_DIR="$MPI" -DCMAKE_CUDA_FLAGS="-I$MPI/include" \
      -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DCMAKE_CUDA_COMPILER="$CUDA_DIR/bin/nvcc" \
      -DHYPRE_BUILD_TESTS=ON -DHYPRE_ENABLE_FORTRAN=OFF -DHYPRE_ENABLE_UMPIRE=OFF \
      -DHYPRE_ENABLE_DEVICE_MALLOC_ASYNC=ON \
      ${HYPRE_CCACHE:+-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache} \
      > "$H/configure.log" 2>&1 || { tail -n 30 "$H/configure.log"; die "configure failed ($H/configure.log)"; }
  fi
  phase "configure ($(( $(date +%s) - t1 ))s)"
  local t2; t2=$(date +%s)
  nice -n 5 cmake --build "$b" -j "$JOBS" --target ij > "$H/build.log" 2>&1 ||
    { grep -m 20 -E "error" "$H/build.log"; die "build failed ($H/build.log)"; }
  phase "compile and link ij ($(( $(date +%s) - t2 ))s; $(grep -c '^\[' "$H/build.log") steps)"
  ls -la "$b/test/ij"
}

stage() {
  local build=${1:-build} s=$H/bundle.tmp/hypre-bundle
  [ -x "$H/build/test/ij" ] || die "no ij: run build"
  rm -rf "$H/bundle.tmp" && mkdir -p "$s/bin" "$s/lib" "$B"
  cp "$H/build/test/ij" "$s/bin/"
  mpi_stage "$s" || die "MPICH files missing"
  strip --strip-unneeded "$s"/bin/* "$s"/lib/*.so* 2>/dev/null
  # tcsparse's shim and library (the shim finds libtcsparse.so.0 beside it).
  local src="" so real
  for d in "$build/shim" "$root/.prebuilt/lib"; do
    [ -e "$d/libtcsparse_cusparse.so.0" ] && { src=$d; break; }
  done
  [ -n "$src" ] || die "no libtcsparse_cusparse.so.0 in $build/shim or .prebuilt/lib"
  mkdir -p "$s/tcsparse"
  for so in "$src/libtcsparse_cusparse.so.0" "$build/lib/libtcsparse.so.0" "$src/libtcsparse.so.0"; do
    [ -e "$so" ] || continue
    real=$(readlink -f "$so")
    cp "$real" "$s/tcsparse/" && ln -sf "$(basename "$real")" "$s/tcsparse/$(basename "$so")"
  done
  [ -e "$s/tcsparse/libtcsparse.so.0" ] || die "no libtcsparse.so.0 beside the shim"
  {
    echo "hypre $(head -n 1 "$H/COMMIT") ($(sed -n 2p "$H/COMMIT"))"
    echo "MPICH $MPICH_VERSION (PyPI wheel); built $(date -u +%FT%TZ) for sm_$ARCH"
    echo "tcsparse revision $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"
    echo "nvcc: $("$CUDA_DIR/bin/nvcc" --version | tail -n 1)"
    echo "cuSPARSE symbols ij needs:"
    nm -D --undefined-only "$s/bin/ij" | awk '/cusparse/ {print "  " $2}'
  } > "$s/MANIFEST"
  tar -C "$H/bundle.tmp" -cf - hypre-bundle | xz -6 -T2 > "$B/hypre-bundle.tar.xz"
  rm -rf "$H/bundle.tmp"
  du -sh "$B/hypre-bundle.tar.xz"
}

unpack_bundle() {  # -> $R
  R=${HYPRE_BUNDLE_DIR:-/tmp/hypre-bundle}
  [ -f "$B/hypre-bundle.tar.xz" ] || die "no $B/hypre-bundle.tar.xz (stage it, carry .hypre-bundle)"
  local stamp; stamp=$(stat -c %s-%Y "$B/hypre-bundle.tar.xz")
  if [ ! -x "$R/bin/ij" ] || [ "$(cat "$R/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$R" && mkdir -p "$(dirname "$R")"
    xz -dc "$B/hypre-bundle.tar.xz" | tar -C "$(dirname "$R")" -xf -
    [ "$(dirname "$R")/hypre-bundle" = "$R" ] || mv "$(dirname "$R")/hypre-bundle" "$R"
    echo "$stamp" > "$R/.stamp"
  fi
  export LD_LIBRARY_PATH="$R/lib:$R/lib/mpich:$CUDA_DIR/lib64:$CUDA_DIR/lib:${LD_LIBRARY_PATH:-}"
  export HYDRA_LAUNCHER=fork
}

# ij's arguments for a problem name (KIND_N) at a rank count: the grid is N^3 per rank
# with --weak (the ranks laid out as P x Q x R), N^3 in all without.
problem_args() {
  local name=$1 np=$2 weak=$3 kind n
  kind=${name%_*}; n=${name##*_}
  local p=1 q=1 r=1
  case $np in 1) ;; 2) p=2 ;; 4) p=2 q=2 ;; 8) p=2 q=2 r=2 ;;
    *) p=$np ;; esac
  # ij's -n is the whole grid, cut into P x Q x R parts, one a rank.
  local nx=$n ny=$n nz=$n
  if [ "$weak" = 1 ]; then
    nx=$(( n * p )) ny=$(( n * q )) nz=$(( n * r ))
  fi
  local grid="-n $nx $ny $nz -P $p $q $r"
  case $kind in
    lap27) echo "-27pt $grid" ;;
    lap7) echo "-laplacian $grid" ;;
    aniso) echo "-laplacian $grid -c 1 1 0.001" ;;
    vardif) echo "-vardifconv $grid -eps 1" ;;
    sys3) echo "-sysL 3 $grid -nf 3" ;;
    *) die "unknown problem $name" ;;
  esac
}

solver_args="-solver 1 -exec_device -interptype 6 -Pmx 4 -agg_nl 1 -agg_interp 5 -tol 1e-8"

run() {
  local problems=lap27_100,lap7_150,vardif_100,sys3_60 ranks=1 modes="hypre vendor tcs" trace=1
  local weak=0 reps=1 trace_modes=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --problems) problems=$2; shift ;;
      --ranks) ranks=$2; shift ;;
      --modes) modes=$2; shift ;;
      --weak) weak=1 ;;
      --no-trace) trace=0 ;;
      --reps) reps=$2; shift ;;
      --trace-modes) trace_modes=$2; shift ;;
      *) die "unknown option $1" ;;
    esac
    shift
  done
  local out=${OUT:-$root/hypre-out}
  mkdir -p "$out"
  unpack_bundle
  local shim0=$R/tcsparse/libtcsparse_cusparse.so.0
  local shim=${TCS_SHIM:-$shim0}
  [ -e "$shim" ] || die "no shim at $shim"
  local bind; bind=$(mpi_bind_wrapper "$out/bind-gpu.sh")
  {
    echo "# hypre BoomerAMG on tcsparse: run of $(date -u +%FT%TZ)"
    echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1) x $(nvidia-smi -L 2>/dev/null | grep -c '^GPU')"
    echo "shim (tcs): $(readlink -f "$shim")$( [ -f "$(dirname "$shim")/REVISION" ] && echo ", revision $(cat "$(dirname "$shim")/REVISION")")"
    echo "bundle's shim (tcs0): $(readlink -f "$shim0")"
    sed -n 1,4p "$R/MANIFEST"
    echo "solver: $solver_args; $( [ $weak = 1 ] && echo "weak scaling: N^3 per rank" || echo "N^3 in all")"
    echo "libraries ij cannot find: $(ldd "$R/bin/ij" | grep -c 'not found')"
  } > "$out/run-info.txt"
  cat "$out/run-info.txt"

  local t0; t0=$(date +%s) limit=${HYPRE_RUN_LIMIT:-480}
  one() {  # tag mode np level args...
    local tag=$1 mode=$2 np=$3 level=$4; shift 4
    local left=$(( t0 + limit - $(date +%s) ))
    if [ "$left" -le 5 ]; then echo "   $tag: CUT (time limit)"; echo cut > "$out/$tag.rc"; return; fi
    [ "$left" -gt "${HYPRE_RUN_CAP:-240}" ] && left=${HYPRE_RUN_CAP:-240}
    local envs=() vend=() pre=""
    [ "$mode" != hypre ] && vend=(-mm_vendor 1 -mv_vendor 1)
    [ "$mode" = tcs ] && pre=$shim
    [ "$mode" = tcs0 ] && pre=$shim0
    # The shim finds libtcsparse.so.0 beside it (its RUNPATH is the build folder's).
    [ -n "$pre" ] && envs=(-genv LD_PRELOAD "$pre" -genv TCS_LOG_LEVEL "$level"
                           -genv LD_LIBRARY_PATH "$(dirname "$pre"):$LD_LIBRARY_PATH")
    # Traced runs: hypre's SpGEMM timer (scripts/hypre/spgemm_timer.py) in every mode.
    [ "$level" != 0 ] && envs+=(-genv HYPRE_TCS_SPGEMM_TIMER 1)
    local s1; s1=$(date +%s%N)
    timeout "$left" "$R/bin/mpiexec" ${envs[@]+"${envs[@]}"} -n "$np" "$bind" "$R/bin/ij" \
      "$@" $solver_args "${vend[@]}" > "$out/$tag.out" 2> "$out/$tag.err" < /dev/null
    local rc=$?
    echo $rc > "$out/$tag.rc"
    echo "$(( ($(date +%s%N) - s1) / 1000000 ))" > "$out/$tag.wall_ms"
    echo "   $tag: exit $rc ($(( ($(date +%s%N) - s1) / 1000000 )) ms)"
    [ $rc = 0 ] || tail -n 4 "$out/$tag.err" "$out/$tag.out" | sed 's/^/      /'
  }
  local np prob mode rep args
  for np in $ranks; do
    for prob in ${problems//,/ }; do
      args=$(problem_args "$prob" "$np" "$weak") || exit 1
      for rep in $(seq 1 "$reps"); do
        # The three modes interleaved, so that a drift in the machine hits all alike.
        for mode in $modes; do
          one "$prob.$mode.np$np.r$rep" "$mode" "$np" 0 $args
        done
      done
    done
  done
  if [ $trace = 1 ]; then
    # One rank, each mode once more with every SpGEMM timed (a wait before and after
    # each): the products' share of setup; through the shim, TCS_LOG_LEVEL=3 adds each
    # call tcsparse ran or forwarded, with its shapes and host time.
    limit=$(( limit + ${HYPRE_TRACE_LIMIT:-120} ))
    local level
    for prob in ${problems//,/ }; do
      args=$(problem_args "$prob" 1 "$weak")
      for mode in ${trace_modes:-$modes}; do
        level=1; [ "${mode#tcs}" != "$mode" ] && level=${HYPRE_TRACE_LEVEL:-3}
        one "$prob.$mode.np1.trace" "$mode" 1 "$level" $args
      done
    done
  fi
  python3 "$root/scripts/hypre/summary.py" "$out" > "$out/summary.md"
  local rc=$?
  cat "$out/summary.md"
  echo "== hypre.sh run: $(( $(date +%s) - t0 ))s, logs in $out"
  "$root/scripts/pack-out.sh" "$out" summary.md   # summary.md opens with run-info.txt
  return $rc
}

cmd=${1:-}; shift || true
case "$cmd" in
  fetch) fetch "$@" ;;
  build) build ;;
  stage) stage "$@" ;;
  run) run "$@" ;;
  *) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0" >&2; exit 2 ;;
esac
