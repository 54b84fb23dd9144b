#!/usr/bin/env bash
# Fails when the C files of a C target call each other in a cycle.
#
# Usage: scripts/check-c-calls.sh [DIR]   (DIR: absolute, or relative to the repository root;
#                                         CShims when omitted; its headers in DIR/include)
#
# Each DIR/*.c is compiled on its own to an object; `nm` lists what each object defines and
# what it needs from elsewhere. A file that needs a symbol another file defines calls it (or
# reads its data): that is an edge of the file-to-file graph. The graph is printed, one edge
# a line, and `tsort` fails if it has a cycle, naming the files in it.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-CShims}"
cc="${CC:-$(command -v cc || command -v clang || echo cc)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

shopt -s nullglob
sources=("$dir"/*.c)
if [ ${#sources[@]} -eq 0 ]; then
    echo "Error: no C files in $dir" >&2
    exit 64
fi

for source in "${sources[@]}"; do
    name="$(basename "$source" .c)"
    "$cc" -c -D_GNU_SOURCE -I"$dir/include" -o "$work/$name.o" "$source"
    # Defined symbols with external linkage (hidden ones too: they are global in the object).
    nm --defined-only --extern-only "$work/$name.o" | awk -v f="$name" 'NF == 3 { print $3, f }' >>"$work/defined"
    # Undefined symbols, weak ones included.
    nm --undefined-only "$work/$name.o" | awk -v f="$name" '{ print $NF, f }' >>"$work/needed"
done

# Join "symbol needer" with "symbol definer" into "needer definer", one line per file pair.
sort -k1,1 "$work/defined" >"$work/defined.sorted"
sort -k1,1 "$work/needed" >"$work/needed.sorted"
join "$work/needed.sorted" "$work/defined.sorted" | awk '$2 != $3 { print $2".c", $3".c" }' | sort -u >"$work/edges"

echo "C calls between files in $dir (caller callee):"
sed 's/^/  /' "$work/edges"
# tsort prints an order, or reports the loop and fails.
if ! tsort <"$work/edges" >/dev/null 2>"$work/loop"; then
    echo "Error: the C files in $dir call each other in a cycle:" >&2
    sed -e 's/^tsort: -: input contains a loop:$/  a loop:/' -e 's/^tsort: /    /' "$work/loop" >&2
    exit 1
fi
echo "No cycles."
