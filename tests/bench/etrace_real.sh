#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# E-Trace decoder throughput on a real program (run by tests/bench/run.sh with the bench folder):
# tests/etrace/elf/sort.rv64 sorting 40 rounds under qemu-user (about a million instructions, the
# data different every round), qemu's execution as a hart trace (tests/etrace/qemu2csv.py),
# encoded by pmregs' encoder (pmregs-decode etrace --encode), decoded by bench_etrace_decoder.c
# against the naive decoder and on every core. Needs qemu-user and python3.
set -u
B=${1:-build/bench}
CC=${CC:-cc}
elf=tests/etrace/elf/sort.rv64
for t in qemu-riscv64 python3; do
	command -v $t >/dev/null 2>&1 || { echo "skipped: $t not installed (Debian: apt-get install qemu-user python3)"; exit 0; }
done
mkdir -p "$B"
$CC -std=c99 -O2 -Iinclude examples/pmregs-decode.c -o "$B/pmregs-decode" || exit 1
$CC -std=c99 -O2 -pthread -Iinclude tests/bench/bench_etrace_decoder.c -o "$B/bench_etrace_decoder" -lm || exit 1
qemu-riscv64 -singlestep -d nochain,exec -D "$B/sort.log" "$elf" 40 >/dev/null || exit 1
python3 tests/etrace/qemu2csv.py --ecall-traps "$elf" "$B/sort.log" >"$B/sort.csv" || exit 1
python3 tests/etrace/qemu2csv.py --pcs "$elf" "$B/sort.log" >"$B/sort.pcs" || exit 1
rm -f "$B/sort.log"
"$B/pmregs-decode" etrace --encode --params iaddress_width_p=64 --image "$elf" "$B/sort.csv" -o "$B/sort.smi" >/dev/null || exit 1
rm -f "$B/sort.csv"
"$B/bench_etrace_decoder" "$elf" "$B/sort.smi" "$B/sort.pcs" iaddress_width_p=64
