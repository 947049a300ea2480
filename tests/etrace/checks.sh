# SPDX-License-Identifier: MIT OR GPL-2.0-only
# E-Trace instruction trace reconstruction on real programs, sourced by tests/run.sh
# (it uses check, skip, have, always=, after=, $last, $B and $WARN).
#
#   - every stream in tests/etrace/vectors (the reference flow's encoder on qemu-user
#     executions of the programs in tests/etrace/progs; see tests/etrace/README.md) is
#     reconstructed by pmregs-decode etrace --image and compared, address by address,
#     with the execution log qemu-user writes for the same ELF file during the check
#   - the reference flow's own test program test_discon_branch_exception (its spike
#     trace is the ground truth)
EB=$B/etrace
mkdir -p "$EB"

etrace_build() {
	gcc -std=c99 $WARN -O2 -Iinclude examples/pmregs-decode.c -o "$EB/pmregs-decode"
}

# The instruction addresses of pmregs-decode's output, without 0x and leading zeros.
etrace_addresses() {
	sed -n 's/^0x0*\([0-9a-f][0-9a-f]*\).*/\1/p'
}

# etrace_real ELF QEMU: run ELF under qemu-user with an execution log (one line per
# instruction: -singlestep, no chaining), then reconstruct every stream recorded for ELF.
etrace_real() {
	elf=$1 qemu=$2
	name=$(basename "$elf")
	log=$EB/$name.log
	"$qemu" -singlestep -d nochain,exec -D "$log" "$elf" >/dev/null || return 1
	sed -n 's/^Trace [0-9]*: [^ ]* \[[0-9a-f]*\/0*\([0-9a-f][0-9a-f]*\)\/.*/\1/p' "$log" >"$EB/$name.want"
	n=$(wc -l <"$EB/$name.want")
	[ "$n" -gt 1000 ] || { echo "qemu's log of $name has $n instructions"; return 1; }
	found=0
	for v in tests/etrace/vectors/"$name".*.smi; do
		[ -f "$v" ] || continue
		set=${v##*/"$name".}
		set=${set%.smi}
		xlen=${name##*.}
		"$EB/pmregs-decode" etrace --image "$elf" --params @tests/etrace/vectors/"$set.$xlen".params "$v" >"$EB/$name.$set.out" || {
			echo "$v: pmregs-decode failed"
			return 1
		}
		etrace_addresses <"$EB/$name.$set.out" >"$EB/$name.$set.got"
		if ! cmp -s "$EB/$name.want" "$EB/$name.$set.got"; then
			echo "$v: the reconstruction differs from qemu's execution log ($EB/$name.want):"
			diff "$EB/$name.want" "$EB/$name.$set.got" | head -n 10
			return 1
		fi
		echo "$v: $n instructions, as qemu executed them"
		found=$((found + 1))
	done
	[ "$found" -gt 0 ] || { echo "no vectors for $name"; return 1; }
}

# The reference flow's test program: spike's trace is the ground truth (its ADDRESS column,
# without the rows of instructions that raised an exception and did not retire: EXCEPTION 1
# and not ecall, ebreak or c.ebreak); the boot ROM spike starts in is not in the ELF file, so
# its bytes (the trace's first five instructions) are given as a raw image at 0x1000.
etrace_refflow() {
	d=tests/etrace/refflow
	awk -F , 'NR > 1 && !($5 == 1 && $3 != "73" && $3 != "100073" && $3 != "9002") { print $2 }' \
		"$d/test_discon_branch_exception.spike_pc_trace" | sed 's/^0*//' >"$EB/refflow.want"
	for set in itype4_basic itype3_debug itype4_debug itype4_fake_scf; do
		"$EB/pmregs-decode" etrace --image "$d/test_discon_branch_exception.riscv" --image "$d/bootrom.bin@0x1000" \
			--params @tests/etrace/vectors/"$set".rv64.params "$d/test_discon_branch_exception.$set.smi" >"$EB/refflow.$set.out" || return 1
		etrace_addresses <"$EB/refflow.$set.out" >"$EB/refflow.$set.got"
		cmp "$EB/refflow.want" "$EB/refflow.$set.got" || { diff "$EB/refflow.want" "$EB/refflow.$set.got"; return 1; }
		grep -q '^trap exception ecause=2 tval=0x0 epc=0x8000005c thaddr=1' "$EB/refflow.$set.out" || {
			echo "$set: no illegal-instruction trap at 0x8000005c"
			return 1
		}
	done
}

always=1 check "etrace: pmregs-decode builds" etrace_build
etrace_built=$last
after=$etrace_built check "etrace: the reference flow's test_discon_branch_exception reconstructs as spike ran it" etrace_refflow
for elf in tests/etrace/elf/*; do
	[ -f "$elf" ] || continue
	case $elf in
	*.rv64) q=qemu-riscv64 ;;
	*.rv32) q=qemu-riscv32 ;;
	*) continue ;;
	esac
	if have $q; then
		after=$etrace_built check "etrace: $(basename "$elf") streams reconstruct qemu's execution" etrace_real "$elf" $q
	else
		skip "etrace: $(basename "$elf") against qemu" "$q not installed (Debian: apt-get install qemu-user)"
	fi
done
