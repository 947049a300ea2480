#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Evidence that the generated Itanium match functions carry no branch: each one is
# wrapped in an external function, compiled at -O2 with gcc and clang, and the
# conditional jumps in its disassembly are counted (x86 j<cc>, jrcxz, loop*; on
# other targets any instruction objdump names b.<cc>/cbz/tbz/bne/beq and the like).
# A measurement for `make bench`, not a test: it prints a table and exits 0.
set -u
B=${1:-build/bench}
mkdir -p "$B"
cd "$(dirname "$0")/../.." || exit 2
if ! command -v objdump >/dev/null 2>&1; then
	echo "SKIP: objdump not installed (Debian: binutils)"
	exit 0
fi
src=$B/itanium_branches.c
cat >"$src" <<'EOF'
#include <pmregs/itanium.h>
int w_va_match(uint64_t ip, uint64_t a, uint64_t m) { return pmregs_itanium_va_match(ip, a, m); }
int w_ibr_match(const uint64_t *ibr, uint8_t i, uint64_t ip, uint8_t cpl) { return pmregs_itanium_ibr_match(ibr, i, ip, cpl); }
int w_ibr_range_tag(uint64_t pmc13, int is, int db, uint8_t cpl, const uint64_t *ibr, uint64_t ip) { return pmregs_itanium_ibr_range_tag(pmc13, is, db, cpl, ibr, ip); }
int w_imatch(enum pmregs_itanium_syllable t, uint64_t pmc) { return pmregs_itanium_imatch(t, pmc); }
int w_ematch(uint64_t e, uint64_t m, uint64_t k) { return pmregs_itanium_ematch(e, m, k); }
int w_opcode_match(uint64_t pmc, enum pmregs_itanium_syllable t, uint64_t e) { return pmregs_itanium_opcode_match(pmc, t, e); }
int w_tag_pmc8(uint64_t pmc, enum pmregs_itanium_syllable t, uint64_t e, int rt, int is) { return pmregs_itanium_tag_pmc8(pmc, t, e, rt, is); }
int w_tag_pmc9(uint64_t pmc, enum pmregs_itanium_syllable t, uint64_t e, int rt, int is) { return pmregs_itanium_tag_pmc9(pmc, t, e, rt, is); }
int w_dbr_match(const uint64_t *dbr, uint8_t i, uint64_t a) { return pmregs_itanium_dbr_match(dbr, i, a); }
int w_dbr_range_match(const uint64_t *dbr, uint64_t a, int db) { return pmregs_itanium_dbr_range_match(dbr, a, db); }
int w_dbr_range_tag(int t8, uint64_t pmc11, int rm, enum pmregs_itanium_data_access a) { return pmregs_itanium_dbr_range_tag(t8, pmc11, rm, a); }
EOF
fns="va_match ibr_match ibr_range_tag imatch ematch opcode_match tag_pmc8 tag_pmc9 dbr_match dbr_range_match dbr_range_tag"
ccs=
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	$cc -std=c99 -O2 -Iinclude -c "$src" -o "$B/itanium_branches.$cc.o" || exit 1
	objdump -d --no-show-raw-insn "$B/itanium_branches.$cc.o" >"$B/itanium_branches.$cc.s" || exit 1
	ccs="$ccs $cc"
done
printf '%-18s' "function"
for cc in $ccs; do printf '  %-22s' "$cc: insns / cond. jumps"; done
echo
total=0
for f in $fns; do
	printf '%-18s' "$f"
	for cc in $ccs; do
		body=$(awk -v f="<w_$f>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' "$B/itanium_branches.$cc.s")
		n=$(printf '%s\n' "$body" | grep -c ':')
		j=$(printf '%s\n' "$body" | grep -Ec '[[:space:]](j(a|ae|b|be|c|e|g|ge|l|le|na|nae|nb|nbe|nc|ne|ng|nge|nl|nle|no|np|ns|nz|o|p|pe|po|s|z|rcxz|ecxz)|loop[a-z]*|b\.[a-z]+|cbn?z|tbn?z|b(eq|ne|lt|ge|ltu|geu|eqz|nez))[[:space:]]')
		total=$((total + j))
		printf '  %-22s' "$n / $j"
	done
	echo
done
echo "conditional jumps in all generated match functions: $total"
