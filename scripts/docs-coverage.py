#!/usr/bin/env python3
"""Lists the public symbols of a module's symbol graphs that have no doc comment of their own.

Usage: docs-coverage.py MODULE DIR. Reads every DIR/*.symbols.json (the module's own graph and
its extensions of other modules' types). A symbol the compiler synthesizes (a conformance's
default `!=`, `hash(into:)` of an enum) or inherits from a protocol of another module has no
source of ours and is left out. Exits 1 when any symbol is undocumented.
"""
import glob
import json
import os
import sys

module, directory = sys.argv[1], sys.argv[2]
missing = []
for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
    with open(path) as handle:
        graph = json.load(handle)
    for symbol in graph.get("symbols", []):
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol.get("location") is None:
            continue
        lines = (symbol.get("docComment") or {}).get("lines", [])
        if any(line.get("text", "").strip() for line in lines):
            continue
        location = symbol["location"]
        file = location["uri"].replace("file://", "")
        file = os.path.relpath(file) if file.startswith("/") else file
        line = location["position"]["line"] + 1
        title = ".".join(symbol["pathComponents"])
        missing.append(f"{file}:{line}: {title} ({symbol['kind']['displayName']})")
for entry in missing:
    print(f"undocumented: {entry}", file=sys.stderr)
if missing:
    print(f"Error: {module}: {len(missing)} public symbols have no doc comment", file=sys.stderr)
    sys.exit(1)
print(f"{module}: every public symbol is documented")
