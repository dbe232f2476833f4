#!/usr/bin/env bash
# Course-wide search against grep, side by side in one run, at 100, 1,000
# and 10,000 lessons (issue 12's budgets).
#
#   bench/search.sh
#
# For each size, with the course's files in the page cache (a grep over
# them first) and a fresh LECTERN_CACHE_DIR:
#   grep    `grep -rliF WORD DIR`, the median of RUNS;
#   first   `lectern search DIR WORD` with no index at all: build + query
#           (budget: within 25x of grep);
#   later   the median of RUNS later searches, over several queries (two
#           words, a phrase, a prefix, a rare word) (budget: 0.25x grep);
#   size    index.db + listings/ against the course's JSON (budget: 30%).
# Prints a markdown table for BENCHMARKS.md.
#
# Environment (besides those in bench/common.sh):
#   SIZES="100 1000 10000"   course sizes
#   RUNS=5                   runs per median
#   COURSE_ROOT=/tmp         where the courses are kept (shared with scale.sh)
#   PROFILE=release          release or debug (debug: `cargo build`, for
#                            ratios on a busy machine; say so with the figures)
#   WORD=buffer              the word grep and the first search look for
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

read -ra sizes <<<"${SIZES:-100 1000 10000}"
runs=${RUNS:-5}
profile=${PROFILE:-release}
word=${WORD:-buffer}
queries=("buffer worker" '"cheap worker"' "wor*" "gradual" "zzyzx")

if [[ $profile == debug ]]; then
    [[ $LECTERN_GIVEN == 1 ]] || LECTERN=$TARGET_DIR/debug/lectern
    GEN=$TARGET_DIR/debug/examples/gen_course
    if [[ ${SKIP_BUILD:-0} != 1 ]]; then
        cargo build --manifest-path "$ROOT/Cargo.toml" --bin lectern --example gen_course ||
            die "cargo build failed"
    fi
else
    build gen_course
fi
[[ -x $LECTERN ]] || die "no lectern at $LECTERN"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-search.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LECTERN_DATA_DIR=$tmp/data

[[ -n ${EPOCHREALTIME:-} ]] || die "bash 5 or later is needed (EPOCHREALTIME)"

# secs CMD...: wall-clock seconds of one run, output discarded. The
# clock is bash's own (EPOCHREALTIME, microseconds): `$(date +%s.%N)`
# forked and ran date inside the measured span, a millisecond or two
# added to every figure, grep's and lectern's alike.
secs() {
    local t0 t1
    t0=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    t1=$EPOCHREALTIME
    echo "$t1 - $t0" | bc -l
}

# median CMD...: the median of RUNS runs' seconds.
median() {
    local i
    for ((i = 0; i < runs; i++)); do secs "$@"; done | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

ms() { printf '%.1f' "$(echo "$1 * 1000" | bc -l)"; }
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }

echo "| lessons | course JSON | grep -rliF | first search (build) | x grep | later search (median, max of queries) | x grep | index | % of JSON |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
    dir=$(generated_course "$n")
    json=$(find "$dir" -maxdepth 1 -name '*.json' -printf '%s\n' | awk '{s += $1} END {print s}')
    # The page cache warmed for both.
    grep -rliF "$word" "$dir" >/dev/null || true
    g=$(median grep -rliF "$word" "$dir")
    export LECTERN_CACHE_DIR=$tmp/cache-$n
    rm -rf "$LECTERN_CACHE_DIR"
    first=$(secs "$LECTERN" search "$dir" "$word")
    worst=0
    for q in "${queries[@]}"; do
        read -ra words <<<"$q"
        t=$(median "$LECTERN" search "$dir" "${words[@]}")
        if (($(echo "$t > $worst" | bc -l))); then worst=$t; fi
    done
    size=$(du -sb "$LECTERN_CACHE_DIR" | cut -f1)
    printf '| %s | %.1f MB | %s ms | %s ms | %s | %s ms | %s | %.1f MB | %.0f%% |\n' \
        "$n" "$(echo "$json / 1000000" | bc -l)" "$(ms "$g")" "$(ms "$first")" "$(ratio "$first" "$g")" \
        "$(ms "$worst")" "$(ratio "$worst" "$g")" "$(echo "$size / 1000000" | bc -l)" \
        "$(echo "100 * $size / $json" | bc -l)"
done
note "lectern: $LECTERN ($profile); queries: ${queries[*]}"
