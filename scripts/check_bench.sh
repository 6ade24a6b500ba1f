#!/usr/bin/env bash
# Checks that the last commit's message names the node count `cutoff bench` prints, read
# as OpenBench reads it (OpenBench/workloads/verify_workload.py: the last match of
# `(BENCH|NODES)[ :=]+<digits>`, any case), so that a test OpenBench creates from the
# commit expects the bench its workers will measure. Our convention is a last line
# `Bench: <nodes>`.
#
# Usage: scripts/check_bench.sh [path to cutoff]   (default: target/release/cutoff)
set -euo pipefail
cd "$(dirname "$0")/.."
CUTOFF=${1:-target/release/cutoff}

message=$(git log -1 --format=%B)
claimed=$(printf '%s\n' "$message" | grep -oiE '(bench|nodes)[ :=]+[0-9,]+' | tail -n 1 |
    sed -E 's/^[A-Za-z]+[ :=]+//; s/,//g' || true)
if [[ -z $claimed ]]; then
    echo "check_bench: the last commit's message has no 'Bench: <nodes>' line" >&2
    exit 1
fi
measured=$("$CUTOFF" bench 2>&1 | tail -n 1 | awk '{print $1}')
if [[ $claimed != "$measured" ]]; then
    echo "check_bench: the last commit says Bench: $claimed, cutoff bench prints $measured" >&2
    exit 1
fi
echo "check_bench: Bench: $measured matches"
