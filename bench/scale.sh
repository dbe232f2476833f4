#!/usr/bin/env bash
# How lectern's first frame and memory grow with the size of a course.
#
#   bench/scale.sh
#
# Generates courses of 100, 1,000 and 10,000 lessons with gen_course (into
# $COURSE_ROOT/lectern-bench-course-N, reused when a folder already holds N
# lessons) and measures with the first_frame harness, in a 100x30 pty:
#   cold  `lectern DIR` with a new empty LECTERN_DATA_DIR for every run, so
#         lectern builds its index each time;
#   warm  `lectern DIR` again on a data dir that one earlier run (held open
#         for SETTLE_MS) has filled, interleaved with the course's first
#         lesson opened alone (copied into a folder of its own): the
#         "warm / alone" ratio is the issue's "within 2x of a single lesson";
# and the peak RSS (VmHWM) of each. "Cold" is lectern's cold start only: the
# lesson files are in the OS page cache (the warm-up run reads them).
# Prints a markdown table for BENCHMARKS.md.
#
# Environment (besides those in bench/common.sh):
#   SIZES="100 1000 10000"   course sizes
#   RUNS=10                  measured runs per measurement
#   COURSE_ROOT=/tmp         where the courses are kept
#   SEED=1                   gen_course seed
#   MARKER                   first-frame marker (default: the title of the
#                            course's first lesson, cut to 40 characters)
#   SETTLE_MS=3000           how long the run that prepares the warm data
#                            dir stays open after its first frame
#   TIMEOUT_MS=120000        give up on a first frame after this long
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

read -ra sizes <<<"${SIZES:-100 1000 10000}"
runs=${RUNS:-10}
seed=${SEED:-1}
timeout_ms=${TIMEOUT_MS:-120000}
command -v python3 >/dev/null || die "python3 is needed to read the lessons"

build first_frame gen_course

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# position_one DIR: the file of the lesson at position 1, if grep finds it.
# gen_course writes compact JSON: found without parsing them all, and by
# find, not a glob: 100,000 names are more than one command line holds.
position_one() {
    find "$1" -maxdepth 1 -name '*.json' -exec grep -l -m1 -F '"position":1,"of":' {} + 2>/dev/null |
        head -1 || true
}

# first_lesson_title DIR: title of the lesson at position 1.
first_lesson_title() {
    local f
    f=$(position_one "$1")
    python3 - "$1" "$f" <<'PY'
import json, os, sys
d, f = sys.argv[1], sys.argv[2]
files = [f] if f else sorted(os.path.join(d, x) for x in os.listdir(d) if x.endswith(".json"))
for path in files:
    j = json.load(open(path, encoding="utf-8"))
    if j["lesson"]["position"] == 1:
        out = ""
        for w in j["lesson"]["title"].split():
            if out and len(out) + 1 + len(w) > 40:
                break
            out = f"{out} {w}" if out else w
        print(out)
        sys.exit()
sys.exit("no lesson at position 1 in " + d)
PY
}

harness() {
    "$HARNESS" --cols "${COLS:-100}" --rows "${ROWS:-30}" --timeout-ms "$timeout_ms" "$@"
}

clean_pager_env
rows=()
for n in "${sizes[@]}"; do
    dir=$(generated_course "$n" "$seed")
    mb=$(du -sb "$dir" | awk '{ printf "%.1f", $1 / 1e6 }')
    marker=${MARKER:-$(first_lesson_title "$dir")}
    cmd="$(q "$LECTERN") $(q "$dir")"
    note "== $n lessons, $mb MB: $cmd (marker \"$marker\")"

    # The index and the listings are a cache (LECTERN_CACHE_DIR): cold means
    # a new one too, or the first run's cache would serve every other.
    note "-- cold: new LECTERN_DATA_DIR and LECTERN_CACHE_DIR every run"
    harness --runs "$runs" --fresh-env LECTERN_DATA_DIR --fresh-env LECTERN_CACHE_DIR --marker "$marker" \
        --label cold --cmd "$cmd" --tsv-out "$tmp/cold-$n.tsv" >&2 || true

    note "-- warm: preparing the data dir (one run held ${SETTLE_MS:-3000} ms)"
    mkdir -p "$tmp/data-$n"
    harness --runs 1 --warmup 0 --hold-ms "${SETTLE_MS:-3000}" --quit-timeout-ms 30000 \
        --env "LECTERN_DATA_DIR=$tmp/data-$n" --env "LECTERN_CACHE_DIR=$tmp/cache-$n" \
        --marker "$marker" --cmd "$cmd" >/dev/null || true
    # Interleaved with the same course's first lesson opened alone (copied
    # into a folder of its own), the budget's reference: warm within 2x.
    mkdir -p "$tmp/single-$n"
    first=$(position_one "$dir")
    [[ -n $first ]] || die "no lesson at position 1 in $dir"
    cp "$first" "$tmp/single-$n/"
    single="$(q "$LECTERN") $(q "$tmp/single-$n/$(basename "$first")")"
    harness --runs "$runs" --env "LECTERN_DATA_DIR=$tmp/data-$n" --env "LECTERN_CACHE_DIR=$tmp/cache-$n" --compare \
        --label single --cmd "$single" --marker "$marker" \
        --label warm --cmd "$cmd" --marker "$marker" --tsv-out "$tmp/warm-$n.tsv" >&2 || true
    data_mb=$(du -sb "$tmp/data-$n" | awk '{ printf "%.1f", $1 / 1e6 }')
    cache_mb=$(du -sb "$tmp/cache-$n" 2>/dev/null | awk '{ printf "%.1f", $1 / 1e6 }')
    note "   data dir $data_mb MB, cache dir ${cache_mb:-0} MB"

    cell() { # cell FILE COLUMN
        local v
        v=$(tsv_field "$1" "$2" "$3" 2>/dev/null || true)
        if [[ $v =~ ^[0-9.]+$ ]]; then printf '%.1f' "$v"; else printf 'failed'; fi
    }
    cell2() { # cell2 FILE LABEL COLUMN: two decimals
        local v
        v=$(tsv_field "$1" "$2" "$3" 2>/dev/null || true)
        if [[ $v =~ ^[0-9.]+$ ]]; then printf '%.2f' "$v"; else printf 'failed'; fi
    }
    rows+=("| $(printf "%'d" "$n") | $mb | $(cell "$tmp/cold-$n.tsv" cold median_ms) | $(cell "$tmp/cold-$n.tsv" cold p90_ms) | $(cell "$tmp/warm-$n.tsv" warm median_ms) | $(cell "$tmp/warm-$n.tsv" warm p90_ms) | $(cell "$tmp/warm-$n.tsv" single median_ms) | $(cell2 "$tmp/warm-$n.tsv" warm ratio) | $(cell "$tmp/cold-$n.tsv" cold peak_rss_mib) | $(cell "$tmp/warm-$n.tsv" warm peak_rss_mib) | $data_mb |")
done

echo
echo "First frame of \`lectern DIR\` by course size (${COLS:-100}x${ROWS:-30} pty, median and p90 of $runs runs, peak RSS = largest VmHWM)"
machine_line
echo
echo "| lessons | course MB | cold median ms | cold p90 ms | warm median ms | warm p90 ms | one lesson alone ms | warm / alone | cold peak RSS MiB | warm peak RSS MiB | data dir MB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
