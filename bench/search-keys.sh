#!/usr/bin/env bash
# Course search in the reader, key by key, on a course of 10,000 lessons
# (issue 23's budget: a key echoed within one frame, its hits drawn within
# 30 ms of it, p95, warm index).
#
#   bench/search-keys.sh
#
# Generates the course with gen_course (into
# $COURSE_ROOT/lectern-bench-course-N, shared with scale.sh and search.sh,
# reused when it holds N lessons), builds its index with one
# `lectern search` (a fresh LECTERN_CACHE_DIR), then runs the search_keys
# harness: `lectern DIR` in a COLSxROWS pty, `s`, and each query typed one
# key at a time, every key measured alone (sent once the screen has been
# quiet for QUIET_MS after the one before): the time to its echo in the
# prompt, to its hits drawn (the status line and the hits' titles as they
# settle) and to their snippets drawn (the screen settled). One pass is
# typed first, unmeasured. Prints a markdown table for BENCHMARKS.md.
#
# Environment (besides those in bench/common.sh):
#   N=10000                  lessons
#   RUNS=5                   measured passes over the queries
#   COURSE_ROOT=/tmp         where the courses are kept
#   QUERIES                  ';'-separated queries typed (default below)
#   COLS=100 ROWS=30         the pty's size
#   QUIET_MS=300             quiet output this long: the screen is settled
#   KEEP_TSV=FILE            keep every key's times there (query, echo,
#                            hits, snippets: which keys are slow)
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

n=${N:-10000}
runs=${RUNS:-5}
IFS=';' read -ra queries <<<"${QUERIES:-buffer worker;cheap lexer;gradual}"

build search_keys gen_course

dir=$(generated_course "$n")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-search-keys.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [[ -n ${KEEP_TSV:-} ]]; then
    trap 'cp "$tmp/keys.tsv" "$KEEP_TSV"; rm -rf "$tmp"' EXIT
fi
export LECTERN_DATA_DIR=$tmp/data LECTERN_CACHE_DIR=$tmp/cache
# Warm: the whole course indexed, its files in the page cache.
"$LECTERN" search "$dir" "${queries[0]%% *}" >/dev/null 2>&1 || die "lectern search failed"

args=(--runs "$runs" --cols "${COLS:-100}" --rows "${ROWS:-30}" --quiet-ms "${QUIET_MS:-300}"
    --ready "Lesson 1 of $n" --tsv-out "$tmp/keys.tsv")
for q in "${queries[@]}"; do args+=(--query "$q"); done
"$TARGET_DIR/release/examples/search_keys" "${args[@]}" -- "$LECTERN" "$dir"
note "lectern: $LECTERN; $n lessons; queries: ${queries[*]}"
