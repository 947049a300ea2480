#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# E-Trace decoder throughput on real programs (run by tests/bench/run.sh with the bench folder): the
# programs of tests/etrace/progs under qemu-user, each for about a million instructions with data that
# differs from round to round (sort and crc: long stretches between packets; recur: calls and returns;
# vm: an interpreter's indirect jump every few instructions), qemu's execution as a hart trace
# (tests/etrace/qemu2csv.py), encoded by pmregs' encoder (pmregs-decode etrace --encode), decoded by
# bench_etrace_decoder.c against the naive decoder and on every core. Needs qemu-user and python3.
set -u
B=${1:-build/bench}
CC=${CC:-cc}
for t in qemu-riscv64 python3; do
	command -v $t >/dev/null 2>&1 || { echo "skipped: $t not installed (Debian: apt-get install qemu-user python3)"; exit 0; }
done
mkdir -p "$B"
$CC -std=c99 -O2 -Iinclude examples/pmregs-decode.c -o "$B/pmregs-decode" || exit 1
$CC -std=c99 -O2 -pthread -Iinclude tests/bench/bench_etrace_decoder.c -o "$B/bench_etrace_decoder" -lm || exit 1
# program and argument (its rounds or depth)
for run in "sort 40" "crc 20" "recur 40000" "vm 60"; do
	set -- $run
	elf=tests/etrace/elf/$1.rv64
	qemu-riscv64 -singlestep -d nochain,exec -D "$B/$1.log" "$elf" "$2" >/dev/null || exit 1
	python3 tests/etrace/qemu2csv.py --ecall-traps "$elf" "$B/$1.log" >"$B/$1.csv" || exit 1
	python3 tests/etrace/qemu2csv.py --pcs "$elf" "$B/$1.log" >"$B/$1.pcs" || exit 1
	rm -f "$B/$1.log"
	"$B/pmregs-decode" etrace --encode --params iaddress_width_p=64 --image "$elf" "$B/$1.csv" -o "$B/$1.smi" >/dev/null || exit 1
	rm -f "$B/$1.csv"
	"$B/bench_etrace_decoder" "$elf" "$B/$1.smi" "$B/$1.pcs" iaddress_width_p=64 || exit 1
	echo
done
