#!/usr/bin/env bash
# What both demos share. Sourced by demo.sh and demo-nio.sh.

# Waits (10 s at most) for a "listening on http://…" line in the log file $1 and prints its URL;
# fails with the log on standard error when none comes.
wait_for_url() {
    for _ in $(seq 1 100); do
        if grep -q "listening on http://" "$1" 2>/dev/null; then
            grep -o 'http://[0-9.:]*' "$1" | head -1
            return 0
        fi
        sleep 0.1
    done
    echo "Error: nothing started listening; its log:" >&2
    cat "$1" >&2
    return 1
}
