#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Regenerate the E-Trace decoder's test vectors (maintainers only; make check
# uses the committed files). See README.md in this directory for provenance.
#
#   sh tests/etrace/make_vectors.sh REFFLOW
#
# REFFLOW is the referenceFlow directory of the E-Trace specification's
# repository (github.com/riscv-non-isa/riscv-trace-spec). Needs
# gcc-riscv64-linux-gnu, qemu-user, python3 and a C compiler. For each program
# in progs/ (RV64GC and RV32GC) it writes elf/PROG.XLEN, runs it under qemu-user
# with an execution log, turns the log into the reference flow's hart trace
# (qemu2csv.py --ecall-traps), runs the reference flow's post-iss and
# encoder_model.py with each parameter set below, and writes
# vectors/PROG.XLEN.SET.smi and vectors/SET.XLEN.params.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ref=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/elf" "$here/vectors"

cc -std=gnu99 -O2 -I"$ref/common/inc" -I"$ref/post-iss/inc" -I"$ref/riscv-disassembler/src" "$ref/common/src/utils.c" \
	"$ref"/post-iss/src/*.c "$ref/riscv-disassembler/src/riscv-disas.c" -o "$tmp/post-iss"

# SET: static configuration (scf) and user configuration (ucf) changes from the reference
# flow's templates, as its test suites of the same names make them.
sets="itype4_basic itype3_debug itype4_debug itype4_fake_scf"
scf_of() {
	case $1 in
	itype4_basic) echo "iaddress_lsb_p=1 itype_width_p=4" ;;
	itype3_debug) echo "iaddress_lsb_p=0 itype_width_p=3" ;;
	itype4_debug) echo "iaddress_lsb_p=0 itype_width_p=4 call_counter_size_p=9" ;;
	itype4_fake_scf) echo "iaddress_lsb_p=1 itype_width_p=4 return_stack_size_p=7 notime_p=0 sijump_p=1" ;;
	esac
}
ucf_of() {
	case $1 in
	itype4_basic) echo "resync-max=0" ;;
	itype3_debug) echo "resync-max=1 full-address=true" ;;
	itype4_debug) echo "resync-max=1 full-address=true" ;;
	itype4_fake_scf) echo "resync-max=16" ;;
	esac
}

for xlen in 64 32; do
	for set in $sets; do
		scf=$tmp/$set.$xlen.scf
		sed "s/^iaddress_width_p=.*/iaddress_width_p=$xlen/" "$ref/tests/config_files/i_template.scf" >"$scf"
		for kv in $(scf_of $set); do sed -i "s/^${kv%%=*}=.*/$kv/" "$scf"; done
		out=$here/vectors/$set.rv$xlen.params
		{
			echo "# SPDX-License-Identifier: MIT OR GPL-2.0-only"
			echo "# The reference flow's parameters for its test suite $set (RV$xlen)"
			grep -E '^(iaddress_width_p|iaddress_lsb_p|privilege_width_p|ecause_width_p|time_width_p|notime_p|context_width_p|nocontext_p|return_stack_size_p|call_counter_size_p|cache_size_p|bpred_size_p|f0s_width_p|sijump_p)=' "$scf"
			# the reference encoder does not implement sequentially inferable jumps
			grep -q '^sijump_p=1' "$scf" && echo "opt_sijump=0"
		} >"$out"
	done
done

for src in "$here"/progs/*.c; do
	prog=$(basename "$src" .c)
	for xlen in 64 32; do
		if [ $xlen = 64 ]; then arch="-march=rv64gc -mabi=lp64d"; qemu=qemu-riscv64; else arch="-march=rv32gc -mabi=ilp32"; qemu=qemu-riscv32; fi
		elf=$here/elf/$prog.rv$xlen
		# shellcheck disable=SC2086
		riscv64-linux-gnu-gcc -O2 $arch -nostdlib -static -ffreestanding -fno-pic -no-pie -fno-optimize-sibling-calls \
			-Wl,--build-id=none -o "$elf" "$src"
		riscv64-linux-gnu-strip "$elf"
		$qemu -singlestep -d nochain,exec -D "$tmp/log" "$elf" >/dev/null
		python3 "$here/qemu2csv.py" --ecall-traps "$elf" "$tmp/log" >"$tmp/t.spike_trace"
		for set in $sets; do
			w=$tmp/$prog.$xlen.$set
			mkdir -p "$w"
			ucf=$w/enc.ucf
			sed "s#^file-stem *=.*#file-stem=$w/t.encoder#" "$ref/tests/config_files/i_template.ucf" >"$ucf"
			for kv in $(ucf_of $set); do sed -i "s/^${kv%%=*} *=.*/$kv/" "$ucf"; done
			r32=
			[ $xlen = 32 ] && r32=-r
			(cd "$w" && "$tmp/post-iss" $r32 -c "$tmp/$set.$xlen.scf" -i "$tmp/t.spike_trace" >/dev/null &&
				python3 "$ref/scripts/encoder_model.py" -u "$ucf" -c "$tmp/$set.$xlen.scf" >/dev/null)
			cp "$w/t.te_inst_raw" "$here/vectors/$prog.rv$xlen.$set.smi"
		done
	done
done
