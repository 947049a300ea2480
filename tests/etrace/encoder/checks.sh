# SPDX-License-Identifier: MIT OR GPL-2.0-only
# pmregs-decode etrace --encode, sourced by tests/run.sh (it uses check, skip, have, always=,
# after=, $last, $B and $WARN).
#
#   - the ingress CSVs of tests/etrace/encoder encode to the reference encoder's bytes
#     (the parameters of each set are in its name; see tests/etrace/encoder/README.md)
#   - the hart traces of qemu-user runs of tests/etrace/elf (written by tests/etrace/qemu2csv.py
#     during the check, once per ELF file for these checks and tests/etrace/checks.sh's) encode to the reference encoder's streams in tests/etrace/vectors for
#     the parameter sets whose options pmregs and the reference encoder share
#   - bad traces and parameters get a located error, exit status 4 (3 for an unknown name),
#     and no output file
EE=$B/etrace_encode
mkdir -p "$EE"

# pmregs-decode: the gcc -O2 build of the C section ($native_pmregs_decode), linked here
ln -sf ../pmregs-decode "$EE/pmregs-decode"

# the --params of one of the reference flow's test suites (the options its encoder has)
enc_suite_params() {
	case $1 in
	itype4_basic) echo "itype_width_p=4,resync_max=16" ;;
	itype3_basic) echo "itype_width_p=3,resync_max=16" ;;
	itype3_debug) echo "itype_width_p=3,resync_max=32,opt_full_address=1" ;;
	esac
}

enc_vectors() {
	n=0
	for csv in tests/etrace/encoder/*.csv; do
		v=$(basename "$csv" .csv)
		set=${v%%-*}
		xlen=${v#*-rv}
		xlen=${xlen%%-*}
		lsb=1
		[ "$set" = itype3_debug ] && lsb=0
		"$EE/pmregs-decode" etrace --encode --params preset=reference_flow,iaddress_width_p="$xlen",iaddress_lsb_p=$lsb \
			--params "$(enc_suite_params "$set")" "$csv" -o "$EE/$v.smi" || return 1
		cmp "tests/etrace/encoder/$v.smi" "$EE/$v.smi" || return 1
		n=$((n + 1))
	done
	[ "$n" -ge 6 ] || { echo "only $n vectors"; return 1; }
	echo "$n vectors, byte for byte"
}

# enc_real ELF CSV: qemu-user's execution of ELF as a hart trace (CSV: tests/etrace/checks.sh's
# etrace_qemu writes it once for the checks of ELF), encoded under the reference flow's parameter sets
# itype4_basic and itype3_debug: the reference encoder's bytes
enc_real() {
	elf=$1 csv=$2
	name=$(basename "$elf")
	xlen=${name##*.rv}
	for set in itype4_basic itype3_debug; do
		"$EE/pmregs-decode" etrace --encode --params @tests/etrace/vectors/"$set.rv$xlen".params \
			--params "$(enc_suite_params $set)" --image "$elf" "$csv" -o "$EE/$name.$set.smi" || return 1
		cmp "tests/etrace/vectors/$name.$set.smi" "$EE/$name.$set.smi" || return 1
		# the same ingress in blocks of up to 8 instructions: the same packets but for where a resync lands
		"$EE/pmregs-decode" etrace --encode --params @tests/etrace/vectors/"$set.rv$xlen".params \
			--params "$(enc_suite_params $set),resync_max=0" --image "$elf" "$csv" -o "$EE/$name.$set.1.smi" || return 1
		"$EE/pmregs-decode" etrace --encode --params @tests/etrace/vectors/"$set.rv$xlen".params \
			--params "$(enc_suite_params $set),resync_max=0,blocks=8" --image "$elf" "$csv" -o "$EE/$name.$set.8.smi" ||
			return 1
		cmp "$EE/$name.$set.1.smi" "$EE/$name.$set.8.smi" || return 1
	done
}

# enc_bad WANT_STATUS WANT_TEXT ARGS...: refused, with the message, and no output file
enc_bad() {
	want=$1 text=$2
	shift 2
	rm -f "$EE/bad.smi" "$EE/bad.smi.tmp"
	"$EE/pmregs-decode" etrace --encode "$@" -o "$EE/bad.smi" 2>"$EE/bad.err"
	st=$?
	cat "$EE/bad.err"
	[ "$st" = "$want" ] || { echo "exit status $st, expected $want"; return 1; }
	grep -q "$text" "$EE/bad.err" || { echo "no \"$text\" in the message"; return 1; }
	[ ! -e "$EE/bad.smi" ] && [ ! -e "$EE/bad.smi.tmp" ] || { echo "an output file was left"; return 1; }
}

enc_refusals() {
	h='VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT'
	printf '%s\n1,1000,13,0,0,0,0,0\n1,1004,zz,0,0,0,0,0\n' "$h" >"$EE/bad1.csv"
	enc_bad 4 "bad1.csv:3: not a row of eight hexadecimal fields" "$EE/bad1.csv" || return 1
	printf '%s\n1,1000,13,0,0,0,0,0\n1,1004,0000001f,0,0,0,0,0\n' "$h" >"$EE/bad2.csv"
	enc_bad 4 "bad2.csv:3: instruction 0x1f at 0x1004: a 48-bit instruction" "$EE/bad2.csv" || return 1
	printf 'a,b,c\n' >"$EE/bad3.csv"
	enc_bad 4 "bad3.csv:1: neither a hart trace" "$EE/bad3.csv" || return 1
	printf '%s\n1,1000,13,0,1,ff,0,0\n' "$h" >"$EE/bad4.csv"
	enc_bad 4 "bad4.csv:2: the encoder refused the block" "$EE/bad4.csv" || return 1
	enc_bad 3 "no parameter 'opt_bogus'" --params opt_bogus=1 "$EE/bad1.csv" || return 1
	enc_bad 4 "implicit return needs return_stack_size_p or call_counter_size_p" --params opt_implicit_return=1 "$EE/bad1.csv" ||
		return 1
	enc_bad 4 "itype_width_p=5 is not 3 or 4" --params itype_width_p=5 "$EE/bad1.csv" || return 1
	enc_bad 5 "cannot read" "$EE/no-such-file.csv" || return 1
}

enc_built=$native_pmregs_decode
after=$enc_built check "etrace --encode: the reference encoder's vectors (tests/etrace/encoder), byte for byte" enc_vectors
after=$enc_built check "etrace --encode: bad traces and parameters refused with a located error, no output" enc_refusals
for elf in tests/etrace/elf/*.rv64 tests/etrace/elf/*.rv32; do
	[ -f "$elf" ] || continue
	case $elf in
	*.rv64) q=qemu-riscv64 ;;
	*) q=qemu-riscv32 ;;
	esac
	# the run of the ELF file under qemu that tests/etrace/checks.sh registered (after pmregs-decode's build)
	eval "enc_ran=\${etrace_qemu_$(printf '%s' "${elf##*/}" | tr -c 'A-Za-z0-9_' '_'):-}"
	if have $q && have python3 && [ -n "$enc_ran" ]; then
		after=$enc_ran check "etrace --encode: $(basename "$elf") under qemu, the reference encoder's bytes" \
			enc_real "$elf" "$B/etrace/$(basename "$elf").csv"
	else
		skip "etrace --encode: $(basename "$elf") under qemu" "$q or python3 not installed (Debian: apt-get install qemu-user python3)"
	fi
done
