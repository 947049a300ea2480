# SPDX-License-Identifier: MIT OR GPL-2.0-only
# RISC-V instruction classes (<pmregs/riscv.h>) against GNU objdump, an independent disassembler, sourced by
# tests/run.sh (it uses check, skip, have, $B, $WARN and $PYTHON). tests/riscv/riscv_view.c writes pmregs'
# view of a file of encodings; tests/riscv/objdump_check.py (stdlib only) disassembles the same encodings and
# compares: every 16-bit parcel and 2 million random 32-bit words plus sweeps of JALR and SYSTEM, for RV32
# and RV64 (about 2.3 million encodings, 15 s of CPU), each known disagreement counted under its reason.
RB=$B/riscv
mkdir -p "$RB"
if ! have riscv64-linux-gnu-objdump; then
	skip "riscv: instruction classes against objdump" "riscv64-linux-gnu-objdump not installed (Debian: apt-get install binutils-riscv64-linux-gnu)"
elif [ -z "$PYTHON" ]; then
	skip "riscv: instruction classes against objdump" "no python3 (Debian: apt-get install python3)"
else
	# one of the longest checks, and nothing waits for it: it starts with the first ones
	early=1 check "riscv: instruction classes against riscv64-linux-gnu-objdump (every 16-bit parcel, 2 M random 32-bit words, RV32 and RV64)" \
		sh -c 'gcc -std=c99 $1 -O2 -Iinclude tests/riscv/riscv_view.c -o "$2/riscv_view" &&
			"$3" tests/riscv/objdump_check.py "$2/riscv_view" "$2/data" --random 1000000' _ "$WARN" "$RB" "$PYTHON"
	# the comparison can fail: a view that treats jalr with rs1 = x0 as the peers do must be refused, by
	# the 32-bit words' JALR sweep (--sets jalr: the sets, random words and SYSTEM sweep that hold no
	# such jalr are not compared)
	check "riscv: the objdump comparison refuses jalr x0 classified as the peers do (uninferable)" \
		sh -c 'gcc -std=c99 $1 -O2 -DRISCV_VIEW_PEERS -Iinclude tests/riscv/riscv_view.c -o "$2/riscv_view_peers" &&
			{ ! "$3" tests/riscv/objdump_check.py "$2/riscv_view_peers" "$2/peers" --sets jalr >"$2/peers.out"; } &&
			cat "$2/peers.out" && grep -q "objdump .jalr x[0-9]*,-*[0-9]*(x0)" "$2/peers.out"' _ "$WARN" "$RB" "$PYTHON"
fi
