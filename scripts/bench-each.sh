#!/usr/bin/env bash
# Runs tcs_bench one matrix at a time and merges the JSON, so that a run cut short by
# a time limit keeps every matrix it finished (Google Benchmark writes its JSON only at
# exit). Usage:
#   scripts/bench-each.sh BUILD_DIR FAMILY_REGEX OUT.json [DEADLINE_SECONDS]
# e.g. scripts/bench-each.sh build-gpu '^spgemm/fp32/' spgemm.json 500
set -u
build=$1 family=$2 out=$3 deadline=${4:-3000}
bench="$build/bench/tcs_bench"
start=$(date +%s)
tmp=$(mktemp -d)
# Matrix names: the fourth-from-last component of spgemm/... names differs by family,
# so take every name the family lists and keep the part before the library.
"$bench" --benchmark_list_tests --benchmark_filter="$family" 2>/dev/null |
  sed -E 's#/(tcsparse|cusparse|rowsplit|merge)(/.*)?$##' | awk -F/ '{print $NF}' | awk '!seen[$0]++' > "$tmp/matrices"
i=0
while read -r matrix; do
  now=$(date +%s)
  left=$(( deadline - (now - start) ))
  if [ "$left" -le 10 ]; then echo "bench-each: deadline reached before $matrix" >&2; break; fi
  i=$((i + 1))
  timeout "$left" "$bench" --benchmark_filter="($family)(.*/)?$matrix/" \
    --benchmark_out="$tmp/$i.json" --benchmark_out_format=json > "$tmp/$i.log" 2>&1 ||
    echo "bench-each: $matrix did not finish ($(tail -n 1 "$tmp/$i.log"))" >&2
done < "$tmp/matrices"
python3 - "$out" "$tmp"/*.json <<'PY'
import json, sys
merged = None
for path in sys.argv[2:]:
    try:
        doc = json.load(open(path))
    except Exception:
        continue
    if merged is None:
        merged = doc
    else:
        merged["benchmarks"].extend(doc["benchmarks"])
json.dump(merged or {"context": {}, "benchmarks": []}, open(sys.argv[1], "w"), indent=1)
print(f"bench-each: {len((merged or {'benchmarks': []})['benchmarks'])} results in {sys.argv[1]}")
PY
rm -rf "$tmp"
