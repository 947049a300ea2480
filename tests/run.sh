#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The whole test suite (`make check`). Every check prints one line:
#   PASS name | FAIL name (then the tail of its log) | SKIP name: reason
# and the last line is "N passed, N failed" (skips are counted on the line before).
#
# Checks are found, not listed: every spec, header, example, tests/c/test_*.c,
# tests/c/fail/*.c and tests/specs/bad/*.yaml takes part as soon as it exists.
set -u
cd "$(dirname "$0")/.." || exit 2

PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
B=${PMREGS_TEST_DIR:-build/tests}
LOG=$B/log
rm -rf "$B"
mkdir -p "$B" "$LOG"

WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
passed=0 failed=0 skipped=0

# check NAME CMD...: run CMD with output to a log; PASS on exit 0.
check() {
	name=$1
	shift
	log="$LOG/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
	if "$@" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name"
		tail -n 25 "$log" | sed 's/^/    /'
	fi
}

skip() {
	skipped=$((skipped + 1))
	echo "SKIP $1: $2"
}

have() { command -v "$1" >/dev/null 2>&1; }

# build_run OUT CC ARGS...: compile with CC ARGS -o OUT, then run OUT.
build_run() {
	out=$1
	shift
	"$@" -o "$out" && "$out"
}

# ---- licence -------------------------------------------------------------------
check "every source and generated file carries the SPDX licence line" sh tests/licence.sh

# ---- generator ----------------------------------------------------------------
if [ -n "$PYTHON" ] && "$PYTHON" -c 'import yaml, jinja2' 2>/dev/null; then
	check "generator unit tests" "$PYTHON" -m unittest discover -s tests/gen -t . -q
	check "headers match the specs (no drift)" "$PYTHON" gen/generate.py --check --out include/pmregs spec/*.yaml
	check "reference pages match the specs (no drift)" "$PYTHON" gen/generate.py --doc --check --out doc spec/*.yaml
	for spec in tests/specs/bad/*.yaml; do
		[ -f "$spec" ] || continue
		check "bad spec $(basename "$spec")" "$PYTHON" tests/gen/expect_error.py "$spec"
	done
	check "generate self-tests" "$PYTHON" gen/generate.py --selftest --out "$B/selftest" spec/*.yaml
else
	skip "generator tests" "no python3 with PyYAML and Jinja2"
fi

# ---- C: generated self-tests, hand-written tests and examples -----------------------
CLANG=
have clang && CLANG=clang
for src in "$B"/selftest/selftest_*.c tests/c/test_*.c examples/*.c; do
	[ -f "$src" ] || continue
	n=$(basename "$src" .c)
	libs=
	grep -q 'pmregs-test: libm' "$src" && libs=-lm
	check "$n (gcc -O2)" build_run "$B/$n" gcc -std=c99 $WARN -O2 -Iinclude "$src" $libs
	if [ -n "$CLANG" ]; then
		check "$n (clang, ASan+UBSan)" build_run "$B/$n.san" clang -std=c99 $WARN -O1 -g $SAN -Iinclude "$src" $libs
	else
		skip "$n (clang, ASan+UBSan)" "clang not installed"
	fi
done

# ---- compile matrix: every header, alone, in every standard -------------------------
for h in include/pmregs/*.h; do
	hn=$(basename "$h")
	printf '#include <pmregs/%s>\nint pmregs_matrix_tu;\n' "$hn" >"$B/tu_$hn.c"
	cp "$B/tu_$hn.c" "$B/tu_$hn.cc"
	for cc in gcc clang; do
		have $cc || { skip "$hn $cc" "$cc not installed"; continue; }
		for std in c99 c11 c17; do
			check "$hn $cc -std=$std" $cc -std=$std $WARN -Iinclude -c "$B/tu_$hn.c" -o "$B/tu.o"
		done
	done
	for cxx in g++ clang++; do
		have $cxx || { skip "$hn $cxx" "$cxx not installed"; continue; }
		for std in c++11 c++17; do
			check "$hn $cxx -std=$std" $cxx -std=$std $WARN -Iinclude -c "$B/tu_$hn.cc" -o "$B/tu.o"
		done
	done
done
printf '#include <pmregs/pmregs.h>\nint pmregs_freestanding_tu;\n' >"$B/free.c"
check "pmregs.h -ffreestanding -nostdlib" gcc -std=c99 $WARN -ffreestanding -nostdlib -Iinclude -c "$B/free.c" -o "$B/free.o"

# ---- misuses that must not compile --------------------------------------------------
for src in tests/c/fail/*.c; do
	[ -f "$src" ] || continue
	n=$(basename "$src" .c)
	want=$(sed -n 's/.*expect-error: *//p' "$src" | head -n 1 | sed 's/ *\*\/ *$//')
	for cc in gcc g++; do
		x=c
		[ $cc = g++ ] && x=c++
		check "$n must not compile ($cc)" sh -c '! '"$cc"' -x '"$x"' -std='"$([ $x = c ] && echo c99 || echo c++11)"' -Iinclude -c "$1" -o /dev/null 2>"$2" && grep -Eq "$3" "$2"' _ "$src" "$LOG/$n.$cc.err" "$want"
	done
done

# ---- cross-check against libpfm4 -----------------------------------------------------
if [ -f /usr/include/perfmon/pfmlib.h ]; then
	for src in tests/pfm/*.c; do
		[ -f "$src" ] || continue
		n=$(basename "$src" .c)
		check "$n (libpfm4)" build_run "$B/$n" gcc -std=c99 $WARN -O1 -Iinclude "$src" -lpfm
	done
else
	skip "libpfm4 cross-checks" "libpfm4-dev is not installed (apt-get install libpfm4-dev)"
fi

# ---- install + pkg-config ------------------------------------------------------------
if have pkg-config; then
	check "make install/uninstall: DESTDIR and prefix with spaces, a second prefix, pkg-config build" sh tests/install.sh "$B/install"
else
	skip "install test" "pkg-config not installed"
fi

# ---- pmregs-decode: golden outputs, --json against the accessors, SVG, bad arguments ----
. tests/cli/checks.sh

# ---- where drivers live: kernel module, assembler, 32-bit, big-endian, CMake --------
. tests/port/checks.sh

# ---- libFuzzer smoke runs (tests/fuzz) ----------------------------------------------
. tests/fuzz/checks.sh

echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
