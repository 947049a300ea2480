# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Portability checks, sourced by tests/run.sh (they use its check, skip, have,
# build_run, $B, $LOG and $WARN).  Each prints PASS, FAIL or SKIP with a reason.
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
port_jobs=$(nproc 2>/dev/null || echo 2)
port_ubsan_trap="-fsanitize=undefined -fsanitize-undefined-trap-on-error"

port_programs() {
	for f in "$B"/selftest/selftest_*.c tests/c/test_*.c examples/*.c tests/port/test_*.c; do
		[ -f "$f" ] && echo "$f"
	done
}

port_libs() {
	grep -q 'pmregs-test: libm' "$1" && echo -lm
	return 0
}

# port_build MODE SRC CC... : build SRC for MODE with CC...; the log and exit
# status are kept for port_target.  Builds run in parallel (port_build_all).
port_build() {
	bmode=$1 bsrc=$2
	shift 2
	bn=$(basename "$bsrc" .c)
	# shellcheck disable=SC2046
	"$@" -std=c99 $WARN -O2 -Iinclude "$bsrc" -o "$PB/$bmode/$bn" $(port_libs "$bsrc") >"$PB/$bmode/$bn.build.log" 2>&1
	echo $? >"$PB/$bmode/$bn.build.rc"
}

# port_build_all MODE CC... : port_build every program, as many at once as there are CPUs.
port_build_all() {
	amode=$1
	shift
	ai=0
	for asrc in $(port_programs); do
		port_build "$amode" "$asrc" "$@" &
		ai=$((ai + 1))
		if [ $ai -ge "$port_jobs" ]; then
			wait
			ai=0
		fi
	done
	wait
}

# port_target MODE SRC : run what port_build made (through $port_runner) and
# compare its stdout with the native run's.
port_target() {
	mode=$1 src=$2
	pn=$(basename "$src" .c)
	cat "$PB/$mode/$pn.build.log"
	[ "$(cat "$PB/$mode/$pn.build.rc")" = 0 ] || return 1
	$port_timeout $port_runner "$PB/$mode/$pn" >"$PB/$mode/$pn.out" || {
		echo "exit status $?; output:"
		cat "$PB/$mode/$pn.out"
		return 1
	}
	grep -q 'pmregs-test: host-specific-output' "$src" && return 0
	if [ ! -f "$PB/native/$pn.out" ]; then
		echo "no native output to compare with: the native build or run of $src failed"
		return 1
	fi
	if ! cmp -s "$PB/native/$pn.out" "$PB/$mode/$pn.out"; then
		echo "output differs from the native run (< native, > this target):"
		diff "$PB/native/$pn.out" "$PB/$mode/$pn.out" | head -n 40
		return 1
	fi
}

# ---- native reference runs (also the first run of tests/port/test_*.c) ----------------
port_runner=
for src in $(port_programs); do
	pn=$(basename "$src" .c)
	case $src in
	tests/port/*)
		port_build native "$src" gcc
		check "$pn (gcc)" port_target native "$src"
		if have clang; then
			# shellcheck disable=SC2046
			check "$pn (clang, ASan+UBSan)" build_run "$PB/native/$pn.san" \
				clang -std=c99 $WARN -O1 -g $SAN -Iinclude "$src" $(port_libs "$src")
		fi
		;;
	*)
		# checked by the native section above, which left its binary in $B:
		# only record the output, for comparison
		[ -x "$B/$pn" ] && "$B/$pn" >"$PB/native/$pn.out.tmp" 2>/dev/null &&
			mv "$PB/native/$pn.out.tmp" "$PB/native/$pn.out"
		;;
	esac
done

# ---- Linux kernel module -----------------------------------------------------------
port_kdir=$(sh tests/kmod/build.sh --kdir)
if ! have make; then
	skip "kernel module build" "make not installed"
elif [ -z "$port_kdir" ]; then
	skip "kernel module build" "no kernel headers under /lib/modules/*/build or /usr/src (Debian: apt-get install linux-headers-amd64)"
else
	check "kernel module: <pmregs/tools.h>, every function, kernel flags + W=1 -Werror ($(basename "$(cd "$port_kdir" && pwd -P)"))" \
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
if printf 'int main(void) { return sizeof(void *) != 4; }\n' >"$PB/m32/probe.c" &&
	gcc -m32 "$PB/m32/probe.c" -o "$PB/m32/probe" >"$LOG/port_m32_probe.log" 2>&1 && "$PB/m32/probe"; then
	port_build_all m32 gcc -m32 $port_ubsan_trap
	for src in $(port_programs); do
		check "$(basename "$src" .c) (gcc -m32, UBSan)" port_target m32 "$src"
	done
	check "assembler: asm_fields.S (gcc -m32)" build_run "$PB/m32/asm" \
		gcc -m32 -std=c99 $WARN -O2 -Iinclude tests/port/asm_check.c tests/port/asm_fields.S
	check "assembler: every constant of every header, .S vs C (gcc -m32)" \
		sh tests/port/asm_consts.sh "$PB/asm_m32" "gcc -m32"
else
	skip "32-bit (gcc -m32)" "gcc -m32 cannot build a program (Debian: apt-get install libc6-dev-i386 lib32gcc-12-dev)"
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
	if "$port_be-gcc" "$PB/be/probe.c" -o "$PB/be/probe" >"$LOG/port_be_probe.log" 2>&1 &&
		$port_runner "$PB/be/probe" >>"$LOG/port_be_probe.log" 2>&1; then
		# no UBSan here: it runs natively and with -m32, and would double the emulated time
		port_build_all be "$port_be-gcc"
		for src in $(port_programs); do
			check "$(basename "$src" .c) ($port_be, big-endian, qemu-user)" port_target be "$src"
		done
		check "assembler: asm_fields.S ($port_be)" sh -c \
			'"$1" -std=c99 $2 -O2 -Iinclude tests/port/asm_check.c tests/port/asm_fields.S -o "$3" && $4 "$3"' \
			_ "$port_be-gcc" "$WARN" "$PB/be/asm" "$port_runner"
		# shellcheck disable=SC2086
		check "assembler: every constant of every header, .S vs C ($port_be)" \
			sh tests/port/asm_consts.sh "$PB/asm_be" "$port_be-gcc" $port_runner
	else
		skip "big-endian (qemu-user)" "$port_be-gcc cannot build, or $port_qemu cannot run, a big-endian program (see $LOG/port_be_probe.log)"
	fi
fi
port_runner=

# ---- CMake package -----------------------------------------------------------------
if have cmake && have make; then
	check "CMake: make install DESTDIR + find_package(pmregs) + pmregs::pmregs" sh tests/port/cmake.sh "$PB/cmake"
else
	skip "CMake package" "cmake not installed (Debian: apt-get install cmake)"
fi
