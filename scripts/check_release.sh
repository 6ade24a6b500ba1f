#!/usr/bin/env bash
# Checks a release folder that `make release` filled: every binary of VERSION that this
# CPU can run prints the same bench node count, and SHA256SUMS lists them all.
#
# Usage: scripts/check_release.sh DIR VERSION
set -euo pipefail
dir=$1
version=$2
cd "$dir"
shopt -s nullglob
binaries=(cutoff-"$version"-*)
if [[ ${#binaries[@]} -eq 0 ]]; then
    echo "check_release: no cutoff-$version-* binaries in $dir" >&2
    exit 1
fi
expected=""
for bin in "${binaries[@]}"; do
    # A CPU without the level's instructions stops the binary with SIGILL.
    if ! nodes=$(./"$bin" bench 2>/dev/null | tail -n 1 | awk '{print $1}') || [[ -z $nodes ]]; then
        echo "$bin: cannot run on this CPU; not compared"
        continue
    fi
    echo "$bin: bench $nodes"
    expected=${expected:-$nodes}
    if [[ $nodes != "$expected" ]]; then
        echo "check_release: $bin prints $nodes nodes, the others $expected" >&2
        exit 1
    fi
done
sha256sum cutoff-"$version"-* > SHA256SUMS
cat SHA256SUMS
