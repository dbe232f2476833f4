#!/usr/bin/env bash
# Time to first frame of a chapter of an mdBook against one JSON lesson,
# side by side in a 100x30 pseudo-terminal, runs interleaved: a chapter
# opens by reading book.toml, SUMMARY.md and that chapter (its includes and
# quizzes), never the other chapters. Budget: the chapter within 1.5x of
# the lesson. Also times `lectern BOOK` (the book at its first chapter)
# beside `lectern FOLDER` for a folder of that one lesson: both open the
# progress store before their first frame, which a file named alone does
# not wait for.
#
#   bench/book-first-frame.sh BOOK [CHAPTER.md [LESSON.json]]
#
# BOOK is an mdBook folder (e.g. a checkout of rust-lang/book); CHAPTER its
# file under the book's src (default: ch04-02-references-and-borrowing.md
# when present, else the first chapter SUMMARY.md lists); LESSON defaults
# to tests/fixtures/why-dough-rises.json.
#
# Environment (besides those in bench/common.sh):
#   RUNS=20  COLS=100  ROWS=30
#   PROFILE=release  or debug: measure the debug build (`cargo build`), for a
#                    machine where a release build is not wanted; the ratio
#                    then says little about the released program
#   BOOK_MARKER / LESSON_MARKER  text that marks each first frame (default:
#                    the chapter's first heading, the lesson's first heading)
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ $# -lt 1 || ! -d $1 ]]; then
    note "usage: $0 BOOK [CHAPTER.md [LESSON.json]]"
    exit 2
fi
book=$(cd "$1" && pwd)
src=$book/src
if [[ -f $book/book.toml ]]; then
    custom=$(sed -n 's/^[[:space:]]*src[[:space:]]*=[[:space:]]*"\(.*\)".*/\1/p' "$book/book.toml" | head -1)
    [[ -n $custom ]] && src=$book/$custom
fi
[[ -f $src/SUMMARY.md ]] || die "no SUMMARY.md in $src"
chapter=${2:-}
if [[ -z $chapter ]]; then
    if [[ -f $src/ch04-02-references-and-borrowing.md ]]; then
        chapter=ch04-02-references-and-borrowing.md
    else
        chapter=$(grep -o '](\([^)]*\.md\))' "$src/SUMMARY.md" | head -1 | sed 's/^](//; s/)$//')
    fi
fi
chapter_file=$src/${chapter#./}
[[ -f $chapter_file ]] || die "no chapter $chapter_file"
lesson_arg "${3:-$ROOT/tests/fixtures/why-dough-rises.json}"

if [[ ${PROFILE:-release} == debug ]]; then
    [[ $LECTERN_GIVEN == 1 ]] || LECTERN=$TARGET_DIR/debug/lectern
    HARNESS=$TARGET_DIR/debug/examples/first_frame
    if [[ ${SKIP_BUILD:-0} != 1 ]]; then
        note "+ cargo build --bin lectern --example first_frame (debug)"
        cargo build --manifest-path "$ROOT/Cargo.toml" --bin lectern --example first_frame ||
            die "cargo build failed"
    fi
    profile_note="DEBUG build: the ratio is not the released program's"
else
    build first_frame
    profile_note="release build"
fi

# The chapter's first heading, cut to 40 characters at a word.
heading=$(grep -m1 -E '^#{1,6} ' "$chapter_file" | sed -E 's/^#+ +//; s/[`*_]//g' |
    awk '{ out = ""; for (i = 1; i <= NF; i++) { if (length(out) + length($i) + 1 > 40 && out != "") break; out = out (out == "" ? "" : " ") $i } print out }')
book_marker=${BOOK_MARKER:-$heading}
lesson_marker=${LESSON_MARKER:-$(first_heading "$lesson")}
first_title=$(grep -m1 -o '\[[^]]*\]([^)]*\.md)' "$src/SUMMARY.md" | sed 's/^\[//; s/\](.*//; s/`//g' | cut -c1-40)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-book-first-frame.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/course"
cp "$lesson" "$tmp/course/"
labels=(lesson chapter folder book)
cmds=("$(q "$LECTERN") $(q "$lesson")" "$(q "$LECTERN") $(q "$chapter_file")"
    "$(q "$LECTERN") $(q "$tmp/course")" "$(q "$LECTERN") $(q "$book")")
markers=("$lesson_marker" "$book_marker" "$lesson_marker" "${BOOK_FIRST_MARKER:-$first_title}")

# A fresh data folder each run: `lectern BOOK` would otherwise resume at
# the chapter read last, and every command starts as cold as the others.
args=(--runs "${RUNS:-20}" --cols "${COLS:-100}" --rows "${ROWS:-30}" --compare
    --tsv-out "$tmp/result.tsv" --fresh-env LECTERN_DATA_DIR --env "LECTERN_CACHE_DIR=$tmp/cache")
for i in "${!cmds[@]}"; do
    args+=(--label "${labels[$i]}" --cmd "${cmds[$i]}" --marker "${markers[$i]}")
done

echo "First frame: a chapter of $(basename "$book") ($chapter, $(wc -c <"$chapter_file") bytes) against $(basename "$lesson") ($(wc -c <"$lesson") bytes)"
echo "${COLS:-100}x${ROWS:-30}, ${RUNS:-20} runs each, interleaved, a new LECTERN_DATA_DIR each run; $profile_note"
echo "Markers: lesson \"$lesson_marker\", chapter \"$book_marker\", book \"${BOOK_FIRST_MARKER:-$first_title}\""
machine_line
echo
status=0
"$HARNESS" "${args[@]}" || status=$?
echo
for i in "${!cmds[@]}"; do
    printf '  %-8s %s\n' "${labels[$i]}" "${cmds[$i]}"
done
echo
for pair in chapter:lesson book:folder; do
    row=${pair%%:*} base=${pair##*:}
    ms=$(tsv_field "$tmp/result.tsv" "$row" median_ms 2>/dev/null || true)
    base_ms=$(tsv_field "$tmp/result.tsv" "$base" median_ms 2>/dev/null || true)
    if [[ $ms =~ ^[0-9.]+$ && $base_ms =~ ^[0-9.]+$ ]]; then
        ratio=$(awk -v a="$ms" -v b="$base_ms" 'BEGIN { printf "%.2f", a / b }')
        echo "$row/$base (median first frame): $ratio  ($ms ms / $base_ms ms; budget 1.5)"
    else
        echo "$row/$base: not available (a command failed: see above)"
    fi
done
if [[ $status -ne 0 ]]; then
    note "some runs failed: if a first screen does not show its marker, set BOOK_MARKER,"
    note "BOOK_FIRST_MARKER or LESSON_MARKER (run the harness with --show to see the screen)."
fi
exit "$status"
