#!/usr/bin/env bash
# First frame of a markdown lesson with pictures against the same lesson
# with its pictures removed (issue 27's budget: no later than 1.1x), in a
# 100x30 pseudo-terminal, runs interleaved. The pictures are made here:
# N PNGs of 800x600 and one SVG with text, each a paragraph of its own.
#
#   bench/images-first-frame.sh
#
# Environment (besides those in bench/common.sh): RUNS=20  N=12
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build first_frame

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lectern-images-frame.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/with/img" "$tmp/without" "$tmp/data"
python3 - "$tmp" "${N:-12}" <<'PY'
import struct, sys, zlib
tmp, n = sys.argv[1], int(sys.argv[2])
def png(path, w, h, seed):
    rows = b"".join(b"\0" + bytes(v for x in range(w)
                                   for v in ((x * seed + y) % 256, (y * 3) % 256, (x + seed) % 256))
                    for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
for i in range(n):
    png(f"{tmp}/with/img/p{i}.png", 800, 600, i + 1)
open(f"{tmp}/with/img/d.svg", "w").write(
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">'
    '<rect x="10" y="10" width="380" height="180" fill="none" stroke="black"/>'
    '<text x="40" y="100" font-size="24">ptr len capacity</text></svg>')
para = "A paragraph of text between the pictures, long enough to wrap once or twice at a hundred columns of the terminal.\n\n"
with_, without = ["# Pictures first frame\n\n"], ["# Pictures first frame\n\n"]
for i in range(n):
    with_ += [para, f"![Picture {i}](img/p{i}.png)\n\n"]
    without += [para]
with_ += [para, "![A diagram](img/d.svg)\n\n"]
without += [para]
open(f"{tmp}/with/01-pictures.md", "w").write("".join(with_))
open(f"{tmp}/without/01-pictures.md", "w").write("".join(without))
PY
clean_pager_env

args=(--runs "${RUNS:-20}" --cols 100 --rows 30 --compare --tsv-out "$tmp/result.tsv"
    --env "LECTERN_DATA_DIR=$tmp/data" --env "LECTERN_CACHE_DIR=$tmp/cache")
args+=(--label without --cmd "$(q "$LECTERN") $(q "$tmp/without/01-pictures.md")" --marker "Pictures first frame")
args+=(--label with --cmd "$(q "$LECTERN") $(q "$tmp/with/01-pictures.md")" --marker "Pictures first frame")
echo "First frame: a lesson with ${N:-12} PNGs (800x600) and an SVG against the same lesson without them, 100x30, ${RUNS:-20} runs each, interleaved"
machine_line
echo
"$HARNESS" "${args[@]}"
echo
without=$(tsv_field "$tmp/result.tsv" without median_ms)
with=$(tsv_field "$tmp/result.tsv" with median_ms)
python3 -c "import sys; w, o = float(sys.argv[1]), float(sys.argv[2]); print(f'with/without (median first frame): {w / o:.2f}  ({w} ms / {o} ms)')" "$with" "$without"
