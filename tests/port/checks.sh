# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Portability checks, sourced by tests/run.sh (they use its check, skip, probe, have,
# build_run, selftests, after=, always=, $native_NAME, $B, $LOG and $WARN).  Each prints
# PASS, FAIL or SKIP with a reason. The CMake check needs $make_built (tests/run.sh: make's build
# of pmregs-decode).
#
#   - Linux kernel module: every header, every function, the kernel's flags + -Werror
#   - assembler: tests/port/asm_fields.S and every constant of every header
#   - 32-bit (gcc -m32) and big-endian (cross gcc + qemu-user): every C test and
#     example built and run, and its output must equal the native run's output
#   - CMake package: find_package(pmregs) + pmregs::pmregs from a DESTDIR install
#
# Programs are found, not listed: generated self-tests, tests/c/test_*.c,
# examples/*.c and tests/port/test_*.c.  A program whose output legitimately
# depends on the host says `pmregs-test: host-specific-output` in its source;
# `pmregs-test: libm` links it with -lm.

PB=$B/port
mkdir -p "$PB/native" "$PB/m32" "$PB/be" "$PB/kmod"
port_timeout=
have timeout && port_timeout="timeout 900"
port_ubsan_trap="-fsanitize=undefined -fsanitize-undefined-trap-on-error"

port_programs() {
	selftests
	for f in tests/c/test_*.c examples/*.c tests/port/test_*.c; do
		[ -f "$f" ] && echo "$f"
	done
}

port_libs() {
	[ -f "$1" ] && grep -q 'pmregs-test: libm' "$1" && echo -lm
	return 0
}

# port_native SRC: the check whose run leaves SRC's native output in $B/NAME.out (0: none)
port_native() {
	pnn=${1##*/}
	eval "echo \${native_$(printf '%s' "${pnn%.c}" | tr -c 'A-Za-z0-9_' '_'):-0}"
}

# port_target MODE SRC CC... : build SRC for MODE with CC... (at -O0, which builds several times
# faster: these runs check results on another word size and byte order, the native builds are the -O2
# ones; at -O1 the tests whose random rounds take the time (pmregs-test: long-run; at -Og, optimised
# without inlining, where inlining costs more build than it saves: pmregs-test: no-inline); with $TESTFLAGS,
# examples too, at -O0 in both modes: their runs take milliseconds, even emulated),
# run it (through $port_runner) and compare its stdout with the native run's. A test that takes its
# number of random rounds from test_scale() (tests/common/check.h) runs an eighth of them with -m32
# (PMREGS_TEST_SCALE=8) and a 256th under emulation, whose point is the byte order (at full scale it
# would take minutes), and is compared with its native build run at the same scale (with -m32, 1/N for a test
# that says `pmregs-test: sanitizer-scale N`, as its sanitizer run). Under emulation
# the exhaustive sweeps and fixed-size loops that say test_sparse() (tests/common/check.h) also visit
# one case in 16, evenly spread (PMREGS_TEST_SPARSE=16; every case in the native and 32-bit runs),
# and the native run it is compared with does the same.
port_scale_m32=8 port_scale_be=256
port_sparse_m32=1 port_sparse_be=16
port_opt_m32=-O0 port_opt_be=-O0
# The 32-bit programs are built position-dependent (-fno-pie -no-pie) and without unwind tables
# (-fno-asynchronous-unwind-tables): none of them unwinds or asserts on position independence, and
# i386 has no pc-relative data addressing, so a PIE computes its base in a call in every function
# that reaches a global and keeps a register for it (the 32-bit checks' builds about 6% and runs about
# 10% cheaper; the big-endian builds gained nothing measurable without the unwind tables: they keep
# the defaults)
port_cflags_m32="-fno-pie -no-pie -fno-asynchronous-unwind-tables"
port_cflags_be=
port_target() {
	mode=$1 src=$2
	shift 2
	eval "port_scale=\$port_scale_$mode port_opt=\$port_opt_$mode port_sparse=\$port_sparse_$mode"
	# a test that says `pmregs-test: sanitizer-scale N` (tests/run.sh: san_scale) takes 1/N here too
	[ "$mode" = m32 ] && port_scale=$(san_scale "$src")
	pn=${src##*/}
	pn=${pn%.c}
	eval "pflags=\"\$TESTFLAGS \$port_cflags_$mode\""
	case $src in examples/*) port_opt=-O0 ;; esac
	grep -q 'pmregs-test: long-run' "$src" 2>/dev/null && port_opt=-O1
	grep -q 'pmregs-test: no-inline' "$src" 2>/dev/null && port_opt=-Og
	# shellcheck disable=SC2046
	"$@" -std=c99 $WARN $port_opt $pflags -Iinclude "$src" -o "$PB/$mode/$pn" $(port_libs "$src") || return 1
	PMREGS_TEST_SCALE=$port_scale PMREGS_TEST_SPARSE=$port_sparse $port_timeout $port_runner "$PB/$mode/$pn" >"$PB/$mode/$pn.out" || {
		echo "exit status $?; output:"
		cat "$PB/$mode/$pn.out"
		return 1
	}
	grep -q 'pmregs-test: host-specific-output' "$src" && return 0
	if [ ! -f "$B/$pn.out" ]; then
		echo "no native output to compare with: the native build or run of $src failed"
		return 1
	fi
	native=$B/$pn.out
	# the 64-bit output at the same scale: the sanitizer run's when it has ended (tests/run.sh:
	# san_build_run; the same program's output as the native build's), or a native run
	port_san=
	[ "$port_sparse" = 1 ] && [ -f "$B/$pn.san.scale" ] && [ "$(cat "$B/$pn.san.scale")" = "$port_scale" ] &&
		[ -f "$B/$pn.san.out" ] && port_san=$B/$pn.san.out
	if [ -n "$port_san" ] && grep -q 'test_scale(' "$src"; then
		native=$port_san
	elif grep -q 'test_scale(' "$src" || { [ "$port_sparse" != 1 ] && grep -q 'test_sparse(' "$src"; }; then
		native=$PB/$mode/$pn.native.out
		PMREGS_TEST_SCALE=$port_scale PMREGS_TEST_SPARSE=$port_sparse "$B/$pn" >"$native" || {
			echo "the native build, at PMREGS_TEST_SCALE=$port_scale PMREGS_TEST_SPARSE=$port_sparse, failed"
			return 1
		}
	fi
	echo "output compared with $native"
	if ! cmp -s "$native" "$PB/$mode/$pn.out"; then
		echo "output differs from the native run (< native, > this target):"
		diff "$native" "$PB/$mode/$pn.out" | head -n 40
		return 1
	fi
}

# ---- native runs of tests/port/test_*.c (the others ran in the C section) ---------------
port_runner=
for src in tests/port/test_*.c; do
	[ -f "$src" ] || continue
	pn=$(basename "$src" .c)
	# shellcheck disable=SC2046
	always=1 check "$pn (gcc)" build_run "$B/$pn" gcc -std=c99 $WARN -O2 -Iinclude "$src" $(port_libs "$src")
	eval "native_$(printf '%s' "$pn" | tr -c 'A-Za-z0-9_' '_')=$last"
	if have clang; then
		# shellcheck disable=SC2046
		check "$pn (clang, ASan+UBSan)" build_run "$PB/$pn.san" \
			clang -std=c99 $WARN -O1 -g $SAN $SANLD -Iinclude "$src" $(port_libs "$src")
	fi
done

# ---- Linux kernel module -----------------------------------------------------------
port_kdir=$(sh tests/kmod/build.sh --kdir)
if ! have make; then
	skip "kernel module build" "make not installed"
elif [ -z "$port_kdir" ]; then
	skip "kernel module build" "no kernel headers under /lib/modules/*/build or /usr/src (Debian: apt-get install linux-headers-amd64)"
else
	# one of the longest checks: it starts with the first ones
	early=1 check "kernel module: <pmregs/tools.h>, every function, kernel flags + W=1 -Werror ($(basename "$(cd "$port_kdir" && pwd -P)"))" \
		sh tests/kmod/build.sh "$PB/kmod" "$port_kdir"
fi

# ---- assembler ---------------------------------------------------------------------
for port_cc in gcc clang; do
	if ! have $port_cc; then
		skip "assembler ($port_cc)" "$port_cc not installed"
		continue
	fi
	check "assembler: tests/port/asm_fields.S field macros ($port_cc)" build_run "$PB/native/asm_$port_cc" \
		$port_cc -std=c99 $WARN -O2 -Iinclude tests/port/asm_check.c tests/port/asm_fields.S
	check "assembler: every constant of every header, .S vs C ($port_cc)" \
		sh tests/port/asm_consts.sh "$PB/asm_$port_cc" $port_cc
done

# ---- 32-bit ------------------------------------------------------------------------
port_runner=
printf 'int main(void) { return sizeof(void *) != 4; }\n' >"$PB/m32/probe.c"
if ! probe m32-build gcc -m32 "$PB/m32/probe.c" -o "$PB/m32/probe"; then
	skip "32-bit (gcc -m32)" "gcc -m32 cannot build a program (Debian: apt-get install libc6-dev-i386 lib32gcc-12-dev; see $LOG/probe-m32-build.log)"
elif ! probe m32-run "$PB/m32/probe"; then
	skip "32-bit (gcc -m32)" "gcc -m32 builds, but this kernel cannot run 32-bit programs (IA-32 emulation is off: CONFIG_IA32_EMULATION or ia32_emulation=0; see $LOG/probe-m32-run.log)"
else
	for src in $(port_programs); do
		after=$(port_native "$src") check "$(basename "$src" .c) (gcc -m32, UBSan)" port_target m32 "$src" gcc -m32 $port_ubsan_trap
	done
	check "assembler: asm_fields.S (gcc -m32)" build_run "$PB/m32/asm" \
		gcc -m32 -std=c99 $WARN -O2 -Iinclude tests/port/asm_check.c tests/port/asm_fields.S
	check "assembler: every constant of every header, .S vs C (gcc -m32)" \
		sh tests/port/asm_consts.sh "$PB/asm_m32" "gcc -m32"
fi

# ---- big-endian under qemu-user ---------------------------------------------------------
port_be=
for port_t in s390x-linux-gnu:qemu-s390x powerpc-linux-gnu:qemu-ppc powerpc64-linux-gnu:qemu-ppc64; do
	port_triple=${port_t%%:*}
	port_qemu=${port_t#*:}
	if have "$port_triple-gcc" && have "$port_qemu" && [ -d "/usr/$port_triple" ]; then
		port_be=$port_triple
		break
	fi
done
if [ -z "$port_be" ]; then
	skip "big-endian (qemu-user)" "no big-endian cross gcc with qemu-user (Debian: apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user)"
else
	port_runner="$port_qemu -L /usr/$port_be"
	printf '#include <stdint.h>\nint main(void) { const uint32_t x = 1; return *(const unsigned char *)&x != 0; }\n' \
		>"$PB/be/probe.c"
	if ! probe be-build "$port_be-gcc" "$PB/be/probe.c" -o "$PB/be/probe"; then
		skip "big-endian (qemu-user)" "$port_be-gcc cannot build a program (Debian: apt-get install libc6-dev-${port_be%%-*}-cross; see $LOG/probe-be-build.log)"
	elif ! probe be-run $port_runner "$PB/be/probe"; then
		skip "big-endian (qemu-user)" "$port_be-gcc builds, but $port_qemu cannot run the program as big-endian (see $LOG/probe-be-run.log)"
	else
		# no UBSan here: it runs natively and with -m32, and would double the emulated time
		for src in $(port_programs); do
			after=$(port_native "$src") check "$(basename "$src" .c) ($port_be, big-endian, qemu-user)" port_target be "$src" "$port_be-gcc"
		done
		check "assembler: asm_fields.S ($port_be)" sh -c \
			'"$1" -std=c99 $2 -O2 -Iinclude tests/port/asm_check.c tests/port/asm_fields.S -o "$3" && $4 "$3"' \
			_ "$port_be-gcc" "$WARN" "$PB/be/asm" "$port_runner"
		# shellcheck disable=SC2086
		check "assembler: every constant of every header, .S vs C ($port_be)" \
			sh tests/port/asm_consts.sh "$PB/asm_be" "$port_be-gcc" $port_runner
	fi
fi
port_runner=

# ---- CMake package -----------------------------------------------------------------
if have cmake && have make; then
	after=$make_built check "CMake: make install DESTDIR + find_package(pmregs) + pmregs::pmregs" sh tests/port/cmake.sh "$PB/cmake" "$B/make"
else
	skip "CMake package" "cmake not installed (Debian: apt-get install cmake)"
fi
