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
#   - the programs' sources still build with the cross compiler and, run under qemu-user,
#     print what the committed ELF files print
#   - round trips through pmregs' own encoder: qemu's execution as a hart trace
#     (qemu2csv.py), pmregs-decode etrace --encode under every option, then --image: the
#     reconstruction is qemu's execution again
EB=$B/etrace
mkdir -p "$EB"

# pmregs-decode: the gcc -O2 build of the C section ($native_pmregs_decode), linked here
ln -sf ../pmregs-decode "$EB/pmregs-decode"

# The instruction addresses of pmregs-decode's output, without 0x and leading zeros (awk: a
# tenth of sed's time on these hundred-thousand-line outputs): the reference flow's spike trace.
etrace_addresses() {
	awk 'match($0, /^0x[0-9a-f]+/) { a = substr($0, 3, RLENGTH - 2); sub(/^0+/, "", a); print (a == "" ? "0" : a) }'
}

# The instruction addresses of pmregs-decode's output on an ELF file's streams, as it prints them: 0x and
# 8 (RV32) or 16 (RV64) digits, which is how qemu prints a pc (grep and cut: a fifth of awk's time).
etrace_pcs() {
	grep '^0x' "$1" | cut -d ' ' -f 1
}

# etrace_qemu ELF QEMU: run ELF under qemu-user with an execution log (one line per instruction:
# -singlestep, no chaining), once for every check of ELF here and in tests/etrace/encoder: the pc of
# every "Trace N: TB [CS_BASE/PC/FLAGS/CFLAGS]" line of the log as etrace_pcs() prints it (NAME.want),
# and with python3 the log as a hart trace (NAME.csv, qemu2csv.py --ecall-traps)
etrace_qemu() {
	elf=$1 qemu=$2
	name=$(basename "$elf")
	log=$EB/$name.log
	"$qemu" -singlestep -d nochain,exec -D "$log" "$elf" >/dev/null || return 1
	# (LC_ALL=C: in a UTF-8 locale this grep takes five times as long)
	LC_ALL=C grep '^Trace [0-9]*: [^ ]* \[[0-9a-f]*/[0-9a-f][0-9a-f]*/' "$log" | cut -d / -f 2 | sed 's/^/0x/' >"$EB/$name.want"
	n=$(wc -l <"$EB/$name.want")
	[ "$n" -gt 1000 ] || { echo "qemu's log of $name has $n instructions"; return 1; }
	echo "$name: $n instructions"
	if have python3; then
		python3 tests/etrace/qemu2csv.py --ecall-traps "$elf" "$log" >"$EB/$name.csv" || return 1
	fi
}

# etrace_real ELF: reconstruct every stream recorded for ELF: qemu's execution (etrace_qemu)
etrace_real() {
	elf=$1
	name=$(basename "$elf")
	n=$(wc -l <"$EB/$name.want")
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
		etrace_pcs "$EB/$name.$set.out" >"$EB/$name.$set.got"
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

# etrace_progs: build tests/etrace/progs/*.c for RV64GC and RV32GC as make_vectors.sh does,
# run them and the committed ELF files under qemu-user: the same output and exit status.
etrace_progs() {
	for src in tests/etrace/progs/*.c; do
		prog=$(basename "$src" .c)
		for xlen in 64 32; do
			if [ $xlen = 64 ]; then arch="-march=rv64gc -mabi=lp64d"; q=qemu-riscv64; else arch="-march=rv32gc -mabi=ilp32"; q=qemu-riscv32; fi
			# shellcheck disable=SC2086
			riscv64-linux-gnu-gcc -O2 $arch -nostdlib -static -ffreestanding -fno-pic -no-pie -fno-optimize-sibling-calls \
				-o "$EB/$prog.rv$xlen" "$src" || return 1
			a=$($q "$EB/$prog.rv$xlen"; echo "status $?")
			b=$($q "tests/etrace/elf/$prog.rv$xlen"; echo "status $?")
			[ "$a" = "$b" ] || { echo "$prog.rv$xlen: built from source: $a; committed: $b"; return 1; }
			echo "$prog.rv$xlen: $a"
		done
	done
}

if have riscv64-linux-gnu-gcc && have qemu-riscv64 && have qemu-riscv32; then
	check "etrace: the test programs build with the cross compiler and run as the committed ELF files" etrace_progs
else
	skip "etrace: the test programs from source" "riscv64-linux-gnu-gcc or qemu-user not installed (Debian: apt-get install gcc-riscv64-linux-gnu qemu-user)"
fi

# etrace_roundtrip ELF: qemu's execution of ELF (etrace_qemu) through pmregs' encoder and decoder, under
# each option set (a call counter cannot follow recur's longjmp: the payload chapter says a program
# that changes return addresses needs the return stack).
etrace_roundtrip() {
	elf=$1
	name=$(basename "$elf")
	w=64
	case $name in *.rv32) w=32 ;; esac
	n=$(wc -l <"$EB/$name.want")
	for opts in "" opt_full_address=1 opt_implicit_return=1,return_stack_size_p=3 opt_implicit_return=1,call_counter_size_p=4 \
		opt_sijump=1,sijump_p=1 opt_jump_target_cache=1,cache_size_p=4,f0s_width_p=1 \
		opt_branch_prediction=1,bpred_size_p=6,f0s_width_p=1 \
		opt_implicit_return=1,return_stack_size_p=2,opt_jump_target_cache=1,cache_size_p=3,opt_branch_prediction=1,bpred_size_p=4,f0s_width_p=1,opt_sijump=1,sijump_p=1 \
		resync_max=3,blocks=4,opt_implicit_return=1,return_stack_size_p=1; do
		case $name,$opts in recur.*,*call_counter*) continue ;; esac
		p=iaddress_width_p=$w${opts:+,$opts}
		"$EB/pmregs-decode" etrace --encode --params "$p" --image "$elf" "$EB/$name.csv" -o "$EB/$name.rt.smi" >/dev/null || {
			echo "$name [$opts]: the encoder failed"
			return 1
		}
		# the decoder takes the parameters; the options come from the support packets
		dp=$(echo "$p" | sed -e 's/opt_[a-z_]*=1//g' -e 's/resync_max=[0-9]*//' -e 's/blocks=[0-9]*//' -e 's/,,*/,/g' -e 's/,$//')
		"$EB/pmregs-decode" --params "$dp" --image "$elf" etrace "$EB/$name.rt.smi" >"$EB/$name.rt.out"
		etrace_pcs "$EB/$name.rt.out" >"$EB/$name.rt.got"
		if ! cmp -s "$EB/$name.want" "$EB/$name.rt.got"; then
			echo "$name [$opts]: the reconstruction differs from qemu's execution log:"
			grep -m 3 '^error' "$EB/$name.rt.out"
			diff "$EB/$name.want" "$EB/$name.rt.got" | head -n 10
			return 1
		fi
		echo "$name [$opts]: $n instructions, as qemu executed them"
	done
}

etrace_built=$native_pmregs_decode
after=$etrace_built check "etrace: the reference flow's test_discon_branch_exception reconstructs as spike ran it" etrace_refflow
for elf in tests/etrace/elf/*; do
	[ -f "$elf" ] || continue
	case $elf in
	*.rv64) q=qemu-riscv64 ;;
	*.rv32) q=qemu-riscv32 ;;
	*) continue ;;
	esac
	if have $q; then
		# qemu's run of the ELF file, once for its checks here and in tests/etrace/encoder (etrace_qemu_NAME);
		# it waits for pmregs-decode, which they need too
		after=$etrace_built always=1 check "etrace: $(basename "$elf") under qemu-user, its execution log and hart trace" etrace_qemu "$elf" $q
		etrace_ran=$last
		eval "etrace_qemu_$(printf '%s' "${elf##*/}" | tr -c 'A-Za-z0-9_' '_')=$etrace_ran"
		after=$etrace_ran check "etrace: $(basename "$elf") streams reconstruct qemu's execution" etrace_real "$elf"
		if have python3; then
			after=$etrace_ran check "etrace: $(basename "$elf") through pmregs' encoder and decoder, every option, is qemu's execution" \
				etrace_roundtrip "$elf"
		else
			skip "etrace: $(basename "$elf") round trips" "python3 not installed (Debian: apt-get install python3)"
		fi
	else
		skip "etrace: $(basename "$elf") against qemu" "$q not installed (Debian: apt-get install qemu-user)"
	fi
done
