#!/usr/bin/env bash
# Rewrites the help blocks of docs/cli.md and docs/collector.md from the tools' real `--help`
# output (80 columns). Each block follows a marker line naming the command it shows:
#
#   <!-- help: crashreport show -->
#   ```text
#   …what `crashreport show --help` prints…
#   ```
#
# CommandLineDocsTests fails when a block and the tool's output drift apart; run this to update.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build --product crashreport >/dev/null
swift build --product crash-collector >/dev/null
bin="$(swift build --show-bin-path)"
python3 - "$bin" docs/cli.md docs/collector.md <<'PY'
import os, re, subprocess, sys
bin_dir, files = sys.argv[1], sys.argv[2:]
marker = re.compile(r'^<!-- help: ([^\n]+?) -->\n```text\n.*?^```\n', re.S | re.M)
def help_text(command):
    tool, *arguments = command.split()
    environment = dict(os.environ, COLUMNS="80")
    output = subprocess.run([os.path.join(bin_dir, tool), *arguments, "--help"], env=environment,
                            check=True, capture_output=True, text=True).stdout
    return output.rstrip("\n") + "\n"
for path in files:
    text = open(path).read()
    updated = marker.sub(lambda m: f"<!-- help: {m.group(1)} -->\n```text\n{help_text(m.group(1))}```\n", text)
    if updated != text:
        open(path, "w").write(updated)
        print(f"updated {path}")
PY
