#!/usr/bin/env bash
# Fails when one top-level type name is declared in two Swift modules: each name one thing.
#
# Usage: scripts/check-type-names.sh [DIR]   (DIR: absolute, or relative to the repository root;
#                                           Sources when omitted)
#
# Each DIR/<Module>/**/*.swift is one module. A declaration that starts a line (no indentation)
# with `struct`, `class`, `enum`, `protocol`, `actor` or `typealias`, after any attributes and
# modifiers, declares a top-level name; extensions declare none. A name declared in two modules
# is printed with the modules, one a line, and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-Sources}"
if [ ! -d "$dir" ]; then
    echo "Error: no directory $dir" >&2
    exit 64
fi
exec python3 - "$dir" <<'PY'
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
declaration = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|open|final|indirect|nonisolated)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
modules = {}
for path in sorted(root.glob("*/**/*.swift")):
    module = path.relative_to(root).parts[0]
    in_comment = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if in_comment:
            in_comment = "*/" not in line
            continue
        if line.startswith("/*"):
            in_comment = "*/" not in line
            continue
        match = declaration.match(line)
        if match:
            modules.setdefault(match.group(1), {}).setdefault(module, f"{path}:{number}")

duplicates = {name: places for name, places in modules.items() if len(places) > 1}
for name in sorted(duplicates):
    places = duplicates[name]
    print(f"error: type name '{name}' is declared in {len(places)} modules: {', '.join(sorted(places))}")
    for module in sorted(places):
        print(f"  {module}: {places[module]}")
if duplicates:
    print(f"{len(duplicates)} type name(s) declared in more than one module: give each one module, or a name of its own")
    sys.exit(1)
print(f"{len(modules)} top-level type names in {root}, each declared in one module")
PY
