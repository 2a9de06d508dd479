#!/usr/bin/env bash
# Packs a GPU run's output folder for the trip back from the device machine, which
# returns at most 8 files of $OUT: with TCS_PACK_OUT=1, everything in OUT but the
# summaries named (files at OUT's top) goes into OUT/logs.tgz and is removed; without
# it, nothing changes (runs on this machine keep their files).
#
#   scripts/pack-out.sh OUT [SUMMARY_FILE ...]
set -u
out=$1; shift
[ "${TCS_PACK_OUT:-0}" = 1 ] && [ -d "$out" ] || exit 0
keep=(logs.tgz "$@")
excludes=()
for k in "${keep[@]}"; do excludes+=(--exclude "./$k"); done
tar czf "/tmp/pack-out-$$.tgz" -C "$out" "${excludes[@]}" . || exit 1
find "$out" -mindepth 1 -maxdepth 1 $(printf ' ! -name %s' "${keep[@]}") -exec rm -rf {} +
mv "/tmp/pack-out-$$.tgz" "$out/logs.tgz"
echo "== $out packed into logs.tgz ($(du -h "$out/logs.tgz" | cut -f1)), kept: ${*:-nothing}"
