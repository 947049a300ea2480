#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Evidence that pmregs_riscv_insn_decode() and its helpers carry no branch, and what one decode costs in
# instructions: each is wrapped in an external function, compiled at -O2 with gcc and clang, and the
# instructions and conditional jumps of its disassembly are counted (x86 j<cc>, jrcxz, loop*; on other
# targets b.<cc>/cbz/tbz/bne/beq and the like). The naive switch decoder of tests/c/test_riscv_naive.h is
# shown for comparison (its instructions are spread over the paths; one decode runs one path).
# A measurement for `make bench`, not a test: it prints a table and exits 0.
set -u
B=${1:-build/bench}
mkdir -p "$B"
cd "$(dirname "$0")/../.." || exit 2
if ! command -v objdump >/dev/null 2>&1; then
	echo "SKIP: objdump not installed (Debian: binutils)"
	exit 0
fi
src=$B/riscv_branches.c
cat >"$src" <<'EOF2'
#include <pmregs/riscv.h>
#include "tests/c/test_riscv_naive.h"
/* flatten: everything the wrapper calls is inlined into it, so its body is the whole decode */
#define W __attribute__((flatten))
W struct pmregs_riscv_insn w_insn_decode(uint32_t insn, unsigned xlen) { return pmregs_riscv_insn_decode(insn, xlen); }
W struct pmregs_riscv_insn w_insn_decode_rv64(uint32_t insn) { return pmregs_riscv_insn_decode(insn, 64); }
W unsigned w_insn_length(uint32_t parcel) { return pmregs_riscv_insn_length(parcel); }
W uint8_t w_jump_itype(uint8_t rd, uint8_t rs1, int inferable) { return pmregs_riscv_jump_itype(rd, rs1, inferable); }
W struct pmregs_riscv_insn w_naive_decode(uint32_t insn, unsigned xlen) { return naive_decode(insn, xlen); }
EOF2
fns="insn_decode insn_decode_rv64 insn_length jump_itype naive_decode"
ccs=
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	$cc -std=c99 -O2 -Iinclude -I. -c "$src" -o "$B/riscv_branches.$cc.o" || exit 1
	objdump -d --no-show-raw-insn "$B/riscv_branches.$cc.o" >"$B/riscv_branches.$cc.s" || exit 1
	ccs="$ccs $cc"
done
printf '%-18s' "function"
for cc in $ccs; do printf '  %-22s' "$cc: insns / cond. jumps"; done
echo
for f in $fns; do
	printf '%-18s' "$f"
	for cc in $ccs; do
		body=$(awk -v f="<w_$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' "$B/riscv_branches.$cc.s")
		n=$(printf '%s\n' "$body" | grep -c ':')
		j=$(printf '%s\n' "$body" | grep -Ec '[[:space:]](j(a|ae|b|be|c|e|g|ge|l|le|na|nae|nb|nbe|nc|ne|ng|nge|nl|nle|no|np|ns|nz|o|p|pe|po|s|z|rcxz|ecxz)|loop[a-z]*|b\.[a-z]+|cbn?z|tbn?z|b(eq|ne|lt|ge|ltu|geu|eqz|nez))[[:space:]]')
		calls=$(printf '%s\n' "$body" | grep -Ec '[[:space:]](call|jmp)[[:space:]]')
		[ "$calls" -gt 0 ] && j="$j, $calls call/jmp"
		printf '  %-22s' "$n / $j"
	done
	echo
done
echo "(one decode executes all of a branch-free function's instructions, and one path of the naive decoder's)"
