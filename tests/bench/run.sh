#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# `make bench`: measurements printed as ratios taken side by side in one run.
# Never a pass/fail timing test: these numbers depend on the machine.
#
# Every tests/bench/bench_*.c is built at -O2 (with -pthread when it says "pmregs-bench: pthread")
# and run; each prints its own table.
# Every tests/bench/*.sh (other than this file) is run too.
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${PMREGS_BENCH_DIR:-build/bench}
mkdir -p "$B"
CC=${CC:-cc}
status=0
for sh in tests/bench/*.sh; do
	[ "$sh" = tests/bench/run.sh ] && continue
	[ -f "$sh" ] || continue
	echo "== $(basename "$sh" .sh)"
	sh "$sh" "$B" || status=1
	echo
done
for src in tests/bench/bench_*.c; do
	[ -f "$src" ] || continue
	n=$(basename "$src" .c)
	echo "== $n"
	# a bench that runs threads says so with a "pmregs-bench: pthread" line
	threads=
	grep -q 'pmregs-bench: pthread' "$src" && threads=-pthread
	$CC -std=c99 -O2 $threads -Iinclude "$src" -o "$B/$n" -lm && "$B/$n" || status=1
	echo
done
exit $status
