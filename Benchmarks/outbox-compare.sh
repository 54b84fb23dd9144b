#!/usr/bin/env bash
# The outboxes before and after a change to the delivery code, interleaved in one run: builds
# the benchmark and the programs it runs in release mode in two checkouts (BEFORE and AFTER:
# each a clone of this repository at a commit, the benchmark file Benchmarks/Sources/
# OutboxBenchmark.swift and its --outbox-only mode present in both), then runs
# `crash-reporter-benchmarks --outbox-only` ROUNDS times in each, alternating, and prints each
# round's table, then every figure's range per checkout.
#
#   Benchmarks/outbox-compare.sh BEFORE AFTER [ROUNDS]    (ROUNDS: 3 by default)
set -euo pipefail
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
rounds=${3:-3}
for tree in "$before" "$after"; do
    (
        cd "$tree"
        source scripts/ensure-deps.sh >/dev/null
        for product in crash-test crash-collector crashreport crash-reporter-benchmarks; do
            swift build -c release --product "$product" >/dev/null
        done
    )
done
out=$(mktemp -d)
for round in $(seq 1 "$rounds"); do
    for side in before after; do
        tree=$before
        [ "$side" = after ] && tree=$after
        "$tree/.build/release/crash-reporter-benchmarks" --outbox-only > "$out/$side-$round.md"
        echo "### round $round, $side ($(git -C "$tree" rev-parse --short HEAD))"
        echo
        cat "$out/$side-$round.md"
        echo
    done
done
python3 - "$out" "$rounds" <<'PY'
import re, sys, pathlib
out, rounds = pathlib.Path(sys.argv[1]), int(sys.argv[2])
figures = {}
for side in ("before", "after"):
    for r in range(1, rounds + 1):
        for line in (out / f"{side}-{r}.md").read_text().splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 2 and re.fullmatch(r"[0-9.]+", cells[1]):
                figures.setdefault(cells[0], {}).setdefault(side, []).append(float(cells[1]))
print("| figure, ms (range over the rounds) | before | after |")
print("|---|---|---|")
for name, sides in figures.items():
    show = lambda v: f"{min(v):g}–{max(v):g}" if v else "–"
    print(f"| {name} | {show(sides.get('before', []))} | {show(sides.get('after', []))} |")
PY
rm -rf "$out"
