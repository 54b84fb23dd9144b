#!/usr/bin/env python3
"""Writes docs/benchmarks.md from one scripts/bench.sh run.

Usage: benchmarks-page.py TEMPLATE RUN-LOG OUTPUT --commit C --load-before L --load-after L [--quick]
       [--mode M] [--readme README.md]

TEMPLATE (Benchmarks/benchmarks.template.md) holds what does not change between runs: what each
row measures, what the profile's phases mean, what the memory table's parts are. Its `{{header}}`
becomes the date, the machine (cores, CPU model, kernel, load average before and after; never the
host name) and the commit; `{{targets}}` the targets of issue 20, each met or missed by how much,
computed from the run; each `{{run}}` the tables the run printed under the `## ` heading of the
same name. A heading the run printed that the template lacks is added at the end, so nothing the
run printed is lost. With --readme (a full run only) the README's summary, between its
`<!-- bench.sh: summary -->` markers, is rewritten from the same run.
"""

import argparse
import datetime
import os
import platform
import re
import sys


def sections(log):
    """The run's output split at its `## ` headings: {heading: text}, in order."""
    found = {}
    heading = None
    lines = []
    for line in log.splitlines():
        if line.startswith("## "):
            if heading is not None:
                found[heading] = "\n".join(lines).strip("\n")
            heading = line[3:].strip()
            lines = []
        elif heading is not None:
            lines.append(line)
    if heading is not None:
        found[heading] = "\n".join(lines).strip("\n")
    return found


def row(text, label, column):
    """The number in `column` (0 is the label) of the table row whose label starts with `label`."""
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].startswith(label) and len(cells) > column:
            try:
                return float(cells[column].split("/")[0].replace(",", ""))
            except ValueError:
                return None
    return None


def number(text, pattern):
    match = re.search(pattern, text)
    return float(match.group(1)) if match else None


def amount(value, unit):
    # MiB to the hundredth: the memory targets are met or missed by fractions of one.
    if unit == "MiB":
        return f"{value:,.2f} {unit}"
    return f"{value:,.1f} {unit}" if abs(value) < 100 else f"{value:,.0f} {unit}"


def verdict(value, limit, unit):
    """(measured, met or missed by how much) for a figure that must stay at or below `limit`."""
    if value is None:
        return "not measured in this run", ""
    return amount(value, unit), "met" if value <= limit else f"missed by {amount(value - limit, unit)}"


def overhead_range(crash):
    """(ours, peer, ratio) ranges across the crash benchmark's rounds, each (low, high), or None."""
    ours = re.search(r"Reporter overhead \(round median − no reporter's round median\): (-?[\d.]+)–(-?[\d.]+) µs", crash)
    peer = re.search(r"overhead \(over its bare program\): (-?[\d.]+)–(-?[\d.]+) µs", crash)
    ratio = re.search(r"ours is (-?[\d.]+)–(-?[\d.]+) % of it", crash)
    pair = lambda m: (float(m.group(1)), float(m.group(2))) if m else None
    return pair(ours), pair(peer), pair(ratio)


def targets(run):
    """Issue 34's targets, each measured from the run."""
    crash = run.get("Crash: fault to waitpid", "")
    threads = run.get("Every thread", "")
    footprint = run.get("Footprint", "")
    breadcrumbs = run.get("Breadcrumbs", "")
    rows = []

    ours, peer, ratio = overhead_range(crash)
    if ours and peer and ratio:
        measured = (f"+{ours[0]:,.0f}–{ours[1]:,.0f} µs against the peer's +{peer[0]:,.0f}–{peer[1]:,.0f} µs: "
                    f"{ratio[0]:.0f}–{ratio[1]:.0f} % of it, round by round")
        met = "met" if ratio[1] <= 100 else f"missed by {ratio[1] - 100:.0f} points in the worst round"
        goal = "; the goal (50 %) met" if ratio[1] <= 50 else f"; the goal (50 %) missed by {ratio[1] - 50:.0f} points"
        rows.append(("crash overhead ≤ sentry-native's in every round (each over its bare program), half as the goal",
                     measured, met + goal))
    else:
        rows.append(("crash overhead ≤ sentry-native's in every round", "not measured in this run (no peer or no crash rows)", ""))

    value = row(threads, "64 other threads sleeping", 3)
    rows.append(("fault to waitpid with 64 sleeping threads ≤ 1,500 µs above no reporter", *verdict(value, 1500, "µs")))

    for label, column, limit, target in (
        ("C ring, message only", 1, 20, "a breadcrumb, message only, 1 thread ≤ 20 ns"),
        ("C ring, one data pair", 1, 50, "a breadcrumb with one data pair, 1 thread ≤ 50 ns"),
        ("C ring, message only", 2, 75, "a breadcrumb on 2 threads at once ≤ 75 ns a record (message only)"),
    ):
        rows.append((target, *verdict(row(breadcrumbs, label, column), limit, "ns")))

    dirty = number(footprint, r"\+(-?[\d.]+) MiB private dirty")
    rows.append(("idle private dirty memory ≤ 0.5 MiB above the same SwiftNIO service without the reporter",
                 *verdict(dirty, 0.5, "MiB")))
    rss = number(footprint, r"\+(-?[\d.]+) MiB idle RSS")
    rows.append(("idle RSS ≤ 3 MiB above the same SwiftNIO service without the reporter", *verdict(rss, 3, "MiB")))

    value = number(crash, r"Report size with 100 breadcrumbs \(gzip\): (\d+) bytes")
    rows.append(("for scale: the report with 100 breadcrumbs (issue 20 asked ≤ 3,000 bytes)",
                 *verdict(value, 3000, "bytes")))

    lines = ["| target (issue 34) | measured in this run | |", "|---|---|---|"]
    lines += [f"| {target} | {measured} | {met} |" for target, measured, met in rows]
    return "\n".join(lines)


def summary(run, args):
    """The README's few lines: each figure with the peer's beside it, from this run."""
    crash = run.get("Crash: fault to waitpid", "")
    start = run.get("start()", "")
    breadcrumbs = run.get("Breadcrumbs", "")
    footprint = run.get("Footprint", "")

    def cell(value, unit, prefix=""):
        return "not measured" if value is None else prefix + amount(value, unit)

    ours, peer, _ = overhead_range(crash)
    rss = number(footprint, r"\+(-?[\d.]+) MiB idle RSS")
    dirty = number(footprint, r"\+(-?[\d.]+) MiB private dirty")

    def spread(pair, unit):
        return "not measured" if pair is None else f"+{pair[0]:,.0f}–{pair[1]:,.0f} {unit}"

    rows = [
        ("a crash: fault to `waitpid` above the bare program (range of three rounds' medians)",
         spread(ours, "µs") + " (every thread, gzip)", spread(peer, "µs") + " (crashing thread, uncompressed)"),
        ("`start()` / `sentry_init`, CPU time, a previous run to settle",
         cell(row(start, "a previous run to settle", 4), "µs"), cell(row(start, "sentry-native", 4), "µs")),
        ("a breadcrumb with one data pair, 1 thread", cell(row(breadcrumbs, "C ring, one data pair", 1), "ns"),
         cell(row(breadcrumbs, "sentry-native", 1), "ns")),
        ("idle memory above the same SwiftNIO service without it: private dirty / RSS",
         cell(dirty, "MiB", "+") + " / " + cell(rss, "MiB", "+"), "not measured"),
    ]
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    lines = [
        f"Medians from the last full `scripts/bench.sh` run ({today}, load average {args.load_before} before it),",
        "sentry-native 0.16.3 (in-process backend) measured beside us in the same run; the machine, every",
        "table and each target met or missed by how much: [docs/benchmarks.md](docs/benchmarks.md).",
        "",
        "| | swift-crash-reporter | sentry-native |",
        "|---|---|---|",
    ]
    lines += [f"| {label} | {ours} | {theirs} |" for label, ours, theirs in rows]
    return "\n".join(lines)


def write_readme(path, text):
    """Replaces what stands between the README's two bench markers."""
    with open(path) as readme:
        content = readme.read()
    begin, end = "<!-- bench.sh: summary -->", "<!-- /bench.sh: summary -->"
    if begin not in content or end not in content:
        sys.exit(f"{path} has no {begin} … {end} markers")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as readme:
        readme.write(f"{head}{begin}\n{text}\n{end}{tail}")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def header(args):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    kind = "a full run"
    if args.quick:
        kind = "a `--quick` run (a few runs of each: it shows the page is written, it is not for comparing)"
    if args.mode:
        kind = f"a partial run ({args.mode}{', --quick' if args.quick else ''})"
    lines = [
        f"Written by `scripts/bench.sh` from {kind}, {now}, at commit `{args.commit}`.",
        "",
        "| machine | |",
        "|---|---|",
        f"| cores | {os.cpu_count()} |",
        f"| CPU | {cpu_model()} ({platform.machine()}) |",
        f"| kernel | {platform.system()} {platform.release()} |",
        f"| load average (1, 5, 15 min) before the run | {args.load_before} |",
        f"| load average after it | {args.load_after} |",
    ]
    return "\n".join(lines)


def fill(template, run, args):
    parts = re.split(r"^(## .+)$", template, flags=re.M)
    out = [parts[0]]
    used = set()
    for i in range(1, len(parts), 2):
        heading = parts[i][3:].strip()
        used.add(heading)
        out.append(parts[i] + parts[i + 1].replace("{{run}}", run.get(heading, "*Not measured in this run.*")))
    for heading, tables in run.items():
        if heading not in used:
            out.append(f"\n## {heading}\n\n{tables}\n")
    page = "".join(out).replace("{{header}}", header(args)).replace("{{targets}}", targets(run))
    return page.rstrip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("template")
    parser.add_argument("log")
    parser.add_argument("output")
    parser.add_argument("--commit", required=True)
    parser.add_argument("--load-before", required=True)
    parser.add_argument("--load-after", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--mode", default="")
    parser.add_argument("--readme", help="a README whose summary between its bench.sh markers this run rewrites")
    args = parser.parse_args()
    with open(args.template) as template, open(args.log) as log:
        run = sections(log.read())
        page = fill(template.read(), run, args)
    if args.readme:
        write_readme(args.readme, summary(run, args))
    with open(args.output, "w") as output:
        output.write(page)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
