#!/usr/bin/env bash
# Installs the system packages the project needs when they are missing (Debian/Ubuntu):
# zlib1g-dev (report compression), binutils (nm and readelf, used by the tests to check frames
# against the binary's own symbols and what a binary links) and util-linux (unshare, used by the
# host-name test), and python3 (the tests' fault-injecting HTTP receiver, https server and proxy),
# curl (the demo reads the collector's API) and openssl (the HTTP client's tests make their
# certificates with it; it brings libssl3), python3-yaml (the deployment docs test parses the pod spec),
# python3-venv (the analytics tests install the vendors' official clients, posthog and telemetrydeckpy
# from PyPI, into a venv under .build on first use), libc6-dbg (the C library's debug files in
# /usr/lib/debug: the system debug directory test reads them), debuginfod (elfutils' server and
# debuginfod-find: the debuginfod tests serve debug files with it)
# and chromium (the browser test renders the collector's
# pages in it, headless) when they are not on PATH. Sourced by demo.sh, test.sh and bench.sh.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "Error: the Swift toolchain (6.0 or later) is not on PATH" >&2
    exit 1
fi

needed=(zlib1g-dev binutils util-linux python3-yaml python3-venv libc6-dbg debuginfod)
missing=()
for package in "${needed[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}…" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Chromium only runs the browser test, which is skipped with its reason where the browser cannot
# be had (a distribution without the package, no network): a failure here is not fatal.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    echo "Installing chromium (for the collector pages' browser test)…" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq chromium >/dev/null; }; then
        echo "warning: chromium could not be installed; the browser test will be skipped" >&2
    fi
fi

# Swift packages. The tools depend on swift-argument-parser (and the footprint benchmark on
# SwiftNIO), fetched from GitHub by SwiftPM. Offline, SWIFTPM_MIRRORS names a folder with
# use-mirrors.sh and the packages' git bundles; this workplace keeps one at ../shared/mirrors,
# used when the variable is unset. `use_mirrors DIR...` points those packages' SwiftPM mirrors
# at it (nothing happens without one).
use_mirrors() {
    local mirrors="${SWIFTPM_MIRRORS:-}"
    if [ -z "$mirrors" ] && [ -x ../shared/mirrors/use-mirrors.sh ]; then mirrors=../shared/mirrors; fi
    if [ -n "$mirrors" ]; then "$mirrors/use-mirrors.sh" "$@" >/dev/null; fi
}
use_mirrors .
