# MPICH from PyPI, for the solver scripts (scripts/petsc.sh, scripts/hypre.sh): one
# version, one wheel, one unpacked tree. Sourced, not run. The caller sets MPI_CACHE (the
# folder the wheel is downloaded to) and MPI (where it is unpacked).
MPICH_VERSION=${MPICH_VERSION:-5.0.2}
MPICH_WHEEL=mpich-$MPICH_VERSION-py3-none-manylinux_2_28_x86_64.whl

# The wheel into $MPI_CACHE (any machine that reaches PyPI).
mpi_fetch() {
  mkdir -p "$MPI_CACHE"
  [ -f "$MPI_CACHE/$MPICH_WHEEL" ] && return 0
  python3 -m pip download --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
    -d "$MPI_CACHE" "mpich==$MPICH_VERSION"
}

# The wheel's data (bin/mpicc, bin/mpiexec.hydra, lib/libmpi.so.12 ...) into $MPI.
mpi_unpack() {
  local t=$MPI.tmp wheel
  wheel=$(readlink -f "$MPI_CACHE/$MPICH_WHEEL")
  [ -f "$wheel" ] || { echo "no $MPI_CACHE/$MPICH_WHEEL: fetch it first" >&2; return 1; }
  rm -rf "$t" "$MPI" && mkdir -p "$t" && (cd "$t" && python3 -m zipfile -e "$wheel" .) &&
    mv "$t/mpich-$MPICH_VERSION.data/data" "$MPI" && rm -rf "$t" && chmod +x "$MPI"/bin/*
}

# What a bundle needs to launch ranks on a machine without MPICH: hydra's mpiexec and
# proxy, and the library. $1: the bundle's root (bin/ and lib/ below it).
mpi_stage() {
  cp "$MPI/bin/mpiexec.hydra" "$1/bin/mpiexec" && cp "$MPI/bin/hydra_pmi_proxy" "$MPI/bin/mpiexec.gforker" "$1/bin/" &&
    cp -a "$MPI/lib/libmpi.so.12" "$MPI/lib/mpich" "$1/lib/"
}

# The wrapper that gives each rank one GPU (CUDA_VISIBLE_DEVICES = rank mod GPUs), the
# usual MPI binding; written to $1, its path printed.
mpi_bind_wrapper() {
  local gpus; gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  [ "$gpus" -ge 1 ] || gpus=1
  printf '#!/bin/sh\nexport CUDA_VISIBLE_DEVICES=$(( ${PMI_RANK:-0} %% %d ))\nexec "$@"\n' "$gpus" > "$1"
  chmod +x "$1"
  echo "$1"
}
