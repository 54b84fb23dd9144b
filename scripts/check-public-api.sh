#!/usr/bin/env bash
# Fails when a library product's public API names a type that a user cannot name: a public type
# of one of the package's modules that no product contains (CrashReporterHTTP's `HTTPRequest`, a
# C target's struct). Such a type may appear only through a type alias the product declares
# (`HTTPTransport.Request`), which is the product's own name for it.
#
# Usage: scripts/check-public-api.sh   (after a build: it reads the package's symbol graphs)
#
# The products and their modules come from `swift package dump-package`; the public declarations
# from `swift package dump-symbol-graph`. Each declaration of a product's module (its own symbol
# graph, not its extensions of other modules' types) that is not a type alias is read fragment by
# fragment; a fragment that refers to a symbol declared by a module outside the products is
# printed with the declaration, one a line, and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest="$(mktemp)"
trap 'rm -f "$manifest"' EXIT
swift package dump-package >"$manifest"
if ! output="$(swift package dump-symbol-graph --minimum-access-level public 2>&1)"; then
    echo "$output" >&2
    exit 1
fi
graphs="$(find .build -maxdepth 2 -type d -name symbolgraph | head -n 1)"
exec python3 - "$manifest" "$graphs" <<'PY'
import json
import pathlib
import sys

manifest = json.loads(pathlib.Path(sys.argv[1]).read_text())
graphs = pathlib.Path(sys.argv[2])
modules = {t["name"].replace("-", "_") for t in manifest["targets"] if t["type"] in ("regular", "executable")}
products = {
    target.replace("-", "_")
    for product in manifest["products"]
    if "library" in product["type"]
    for target in product["targets"]
}
outside = modules - products
owner = {}
for path in graphs.glob("*.symbols.json"):
    module = path.name.split(".symbols.json")[0]
    if "@" in module:
        continue
    for symbol in json.loads(path.read_text())["symbols"]:
        owner[symbol["identifier"]["precise"]] = module
found = []
for module in sorted(products):
    path = graphs / f"{module}.symbols.json"
    if not path.exists():
        continue
    for symbol in json.loads(path.read_text())["symbols"]:
        if symbol["kind"]["identifier"] == "swift.typealias":
            continue
        for fragment in symbol.get("declarationFragments", []):
            other = owner.get(fragment.get("preciseIdentifier", ""))
            if other in outside:
                name = ".".join(symbol["pathComponents"])
                found.append(f"{module}.{name} names {other}.{fragment['spelling']}, which no product contains")
for line in sorted(set(found)):
    print(line)
if found:
    sys.exit(1)
print(f"{len(products)} products' public declarations name only types a user can name")
PY
