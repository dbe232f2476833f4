#!/usr/bin/env bash
# Word recall and precision of `lectern render` against mdBook's own HTML,
# chapter by chapter (issue 26's budget). Usage:
#   bench/book-words.sh BOOK...
# BOOK is an mdBook folder (book.toml). Each is copied to a temporary folder
# (the original is never written), its book.toml rewritten by
# `book_words.py prepare` (preprocessors on PATH run by path, the others
# removed and named; outputs other than html removed), built with
# $MDBOOK, then compared by bench/book_words.py with `lectern render` of
# the original book's chapters. Prints one TSV line per
# book, with the preprocessors that ran and those that did not, and appends
# the worst chapters (their missing and extra words) to $DETAIL.
#
# Environment: MDBOOK (default: mdbook on PATH); LECTERN (default: the debug
# build of this checkout, built with `cargo build` unless SKIP_BUILD=1);
# WORST chapters per book in $DETAIL (default 8; DETAIL default
# book-words-detail.txt in the current folder); QUIZZES=1 compares the
# `{{#quiz}}` lines with their TOML files (books using mdbook-quiz: on when
# book.toml names the quiz preprocessor).
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
MDBOOK=${MDBOOK:-mdbook}
DETAIL=${DETAIL:-$PWD/book-words-detail.txt}
WORST=${WORST:-8}
[[ $# -ge 1 ]] || { echo "usage: $0 BOOK..." >&2; exit 2; }
command -v "$MDBOOK" >/dev/null || { echo "$0: no mdbook (set MDBOOK)" >&2; exit 2; }
if [[ -z ${LECTERN:-} ]]; then
    LECTERN=$TARGET_DIR/debug/lectern
    [[ ${SKIP_BUILD:-0} == 1 ]] || (cd "$ROOT" && cargo build --quiet --bin lectern)
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf 'book\tchapters\tmdbook_words\tlectern_words\tmatched\trecall\tprecision\tchapters_under_0.99\tpreprocessors\n'
for book in "$@"; do
    name=$(basename "$(cd "$book" && pwd)")
    copy=$TMP/$name
    mkdir -p "$copy"
    tar -C "$book" --exclude=.git -cf - . | tar -C "$copy" -xf -
    pre=$(python3 "$BENCH_DIR/book_words.py" prepare "$copy/book.toml" | paste -sd, -)
    (cd "$copy" && "$MDBOOK" build -d "$TMP/$name-html" >"$TMP/$name-build.log" 2>&1) ||
        { echo "$0: mdbook build failed for $book:" >&2; tail -20 "$TMP/$name-build.log" >&2; exit 1; }
    quiz=()
    if [[ ${QUIZZES:-} == 1 ]] || grep -q '^\[preprocessor\.quiz\]' "$book/book.toml"; then
        quiz=(--quizzes)
    fi
    # lectern reads the book as its authors wrote it (the original
    # book.toml): where a preprocessor could not be built, mdBook's page
    # lacks what it adds and lectern's does not, and the table says so.
    line=$(python3 "$BENCH_DIR/book_words.py" "$book" "$TMP/$name-html" "$LECTERN" \
        "${quiz[@]}" --worst "$WORST" --detail "$DETAIL")
    printf '%s\t%s\n' "$line" "${pre:--}"
done
