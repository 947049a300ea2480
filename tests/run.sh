#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The whole test suite (`make check`). Every check prints one line:
#   [n/N] PASS name | [n/N] FAIL name (then the tail of its log) | [n/N] SKIP name: reason
# then the failed checks are listed again with their logs, and the last two lines are
# "N skipped" and "N passed, N failed".
#
# Checks are found, not listed: every spec, header, example, tests/c/test_*.c,
# tests/c/fail/*.c and tests/specs/bad/*.yaml takes part as soon as it exists.
#
# Checks run in parallel, JOBS at a time (default: the number of CPUs); each writes its
# own log (build/tests/log/NNN-name.log) and result, and results are printed in a fixed
# order whatever order they finish in. T=pattern runs only the checks whose name
# contains the shell pattern (what they need still runs, unlisted).
#
#   make check                 sh tests/run.sh
#   make check T=netburst      only the checks with "netburst" in their name
#   make check JOBS=1          one at a time
set -u
cd "$(dirname "$0")/.." || exit 2

PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
B=${PMREGS_TEST_DIR:-build/tests}
T=${T:-}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
LOG=$B/log
RES=$B/results
rm -rf "$B"
mkdir -p "$B" "$LOG" "$RES"

WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# ---- the runner ------------------------------------------------------------------------
# The suite below (suite()) is read twice: first to count the checks (MODE=count, nothing
# runs), then to run them (MODE=run). So it must register the same checks both times:
# anything a check needs from another runs inside a check, never while registering.
#
#   check NAME CMD...            run CMD (a command or a function of this shell), log its output
#   after=K check NAME CMD...    the same, once check K (a $last value) has passed
#   always=1 check NAME CMD...   run it even when T excludes it (others need it; it is not listed)
#   skip NAME REASON             a check that cannot run here, and why
# After check, $last is its number, for after=.

MODE=count
total=0    # N: listed checks (the counting pass)
nlisted=0  # listed checks so far
seq=0      # every job, listed or not
printed=0  # jobs whose line is out
active=    # jobs running
nactive=0
last=0
passed=0 failed=0 skipped=0
after=0 always=0

listed() {
	case $1 in *$T*) return 0 ;; esac
	return 1
}

logname() {
	printf '%s/%03d-%s.log' "$LOG" "$1" "$(printf '%s' "$2" | tr -c 'A-Za-z0-9_.-' '_' | cut -c 1-80)"
}

# job I DEP CMD...: the body of a background job
job() {
	ji=$1 jdep=$2
	shift 2
	if [ "$jdep" != 0 ]; then
		while [ ! -f "$RES/$jdep.rc" ]; do sleep 0.2; done
		if [ "$(cat "$RES/$jdep.rc")" != 0 ]; then
			echo "not run: it needs \"$(cat "$RES/$jdep.name")\", which failed (log: $(cat "$RES/$jdep.log"))"
			echo 1 >"$RES/$ji.rc.tmp"
			mv "$RES/$ji.rc.tmp" "$RES/$ji.rc"
			return
		fi
	fi
	# CPU seconds: `times` before and after (its second line: the children's user and system time,
	# which a background job starts counting from zero); wall seconds from /proc/uptime
	times >"$RES/$ji.cpu0"
	jw0=
	[ -r /proc/uptime ] && read -r jw0 _ </proc/uptime
	("$@")
	jrc=$?
	times >"$RES/$ji.cpu1"
	[ -n "$jw0" ] && read -r jw1 _ </proc/uptime && echo "$jw0 $jw1" >"$RES/$ji.wall"
	echo $jrc >"$RES/$ji.rc.tmp"
	mv "$RES/$ji.rc.tmp" "$RES/$ji.rc"
}

# timing_report: the suite's CPU and wall seconds, and the ten checks that took the most CPU
timing_report() {
	for ti in "$RES"/*.cpu1; do
		[ -f "$ti" ] || continue
		tn=${ti%.cpu1}
		printf '%s\t' "$(cat "$tn.name" 2>/dev/null)"
		sed -n 2p "$tn.cpu0" | tr '\n' ' '
		sed -n 2p "$ti" | tr '\n' ' '
		cat "$tn.wall" 2>/dev/null || echo
	done | awk -F '\t' -v total="$1" -v wall="$2" -v jobs="$JOBS" '
		function sec(s) { split(s, p, "m"); sub("s", "", p[2]); return p[1] * 60 + p[2] }
		{
			split($2, f, " ")
			cpu = sec(f[3]) + sec(f[4]) - sec(f[1]) - sec(f[2])
			w = (f[6] != "") ? f[6] - f[5] : 0
			n++; name[n] = $1; c[n] = cpu; wl[n] = w; sum += cpu
		}
		END {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (c[j] > c[i]) { t = c[i]; c[i] = c[j]; c[j] = t; t = wl[i]; wl[i] = wl[j]; wl[j] = t; t = name[i]; name[i] = name[j]; name[j] = t }
			printf "time: %.0f s CPU in all (%.0f s in the %d checks that ran), %s s wall with JOBS=%s\n", total, sum, n, wall, jobs
			printf "the ten checks that took the most CPU (CPU s, wall s):\n"
			for (i = 1; i <= n && i <= 10; i++) printf "  %7.1f %7.1f  %s\n", c[i], wl[i], name[i]
		}'
}

# reap: forget finished jobs; print every line that is ready, in order
reap() {
	still=
	nactive=0
	for ri in $active; do
		if [ ! -f "$RES/$ri.rc" ]; then
			still="$still $ri"
			nactive=$((nactive + 1))
		fi
	done
	active=$still
	while [ "$printed" -lt "$seq" ]; do
		pi=$((printed + 1))
		[ -f "$RES/$pi.rc" ] || break
		printed=$pi
		[ -f "$RES/$pi.n" ] || continue
		pn="[$(cat "$RES/$pi.n")/$total]"
		pname=$(cat "$RES/$pi.name")
		case $(cat "$RES/$pi.rc") in
		skip)
			skipped=$((skipped + 1))
			echo "$pn SKIP $pname: $(cat "$RES/$pi.log")"
			;;
		0)
			passed=$((passed + 1))
			echo "$pn PASS $pname"
			;;
		*)
			failed=$((failed + 1))
			echo "$pn FAIL $pname"
			tail -n 25 "$(cat "$RES/$pi.log")" | sed 's/^/    /'
			echo "$pn $pname: $(cat "$RES/$pi.log")" >>"$RES/failed"
			;;
		esac
	done
}

check() {
	cname=$1
	shift
	cdep=$after cforce=$always
	after=0 always=0
	if listed "$cname"; then
		nlisted=$((nlisted + 1))
	elif [ "$cforce" = 0 ]; then
		return 0
	fi
	seq=$((seq + 1))
	last=$seq
	if [ "$MODE" = count ]; then
		# a check that is not listed runs only if a listed one needs it, directly or not
		eval "dep_$seq=$cdep"
		if listed "$cname"; then
			while [ "$cdep" != 0 ]; do
				eval "needed_$cdep=1"
				eval "cdep=\$dep_$cdep"
			done
		fi
		return 0
	fi
	if ! listed "$cname" && eval "[ -z \"\${needed_$seq:-}\" ]"; then
		echo skip >"$RES/$seq.rc"
		return 0
	fi
	clog=$(logname "$seq" "$cname")
	printf '%s' "$cname" >"$RES/$seq.name"
	printf '%s' "$clog" >"$RES/$seq.log"
	listed "$cname" && echo "$nlisted" >"$RES/$seq.n"
	while [ "$nactive" -ge "$JOBS" ]; do
		sleep 0.1
		reap
	done
	job "$seq" "$cdep" "$@" >"$clog" 2>&1 </dev/null &
	active="$active $seq"
	nactive=$((nactive + 1))
	reap
}

skip() {
	listed "$1" || return 0
	nlisted=$((nlisted + 1))
	seq=$((seq + 1))
	[ "$MODE" = run ] || return 0
	printf '%s' "$1" >"$RES/$seq.name"
	printf '%s' "$2" >"$RES/$seq.log"
	echo "$nlisted" >"$RES/$seq.n"
	echo skip >"$RES/$seq.rc"
	reap
}

have() { command -v "$1" >/dev/null 2>&1; }

# probe NAME CMD...: run CMD once per suite (both passes see the same answer); log in $LOG/probe-NAME.log
probe() {
	pname=$1
	shift
	if [ ! -f "$RES/probe-$pname" ]; then
		("$@") >"$LOG/probe-$pname.log" 2>&1 </dev/null
		echo $? >"$RES/probe-$pname"
	fi
	[ "$(cat "$RES/probe-$pname")" = 0 ]
}

# build_run OUT CC ARGS...: compile with CC ARGS -o OUT, then run OUT; its standard output is
# also kept in OUT.out (the native output other targets are compared with).
build_run() {
	out=$1
	shift
	"$@" -o "$out" || return 1
	"$out" >"$out.out.tmp"
	brc=$?
	cat "$out.out.tmp"
	[ $brc = 0 ] && mv "$out.out.tmp" "$out.out"
	return $brc
}

# drift FIX CMD...: CMD checks that generated files are up to date; on failure, say how to fix it
drift() {
	dfix=$1
	shift
	"$@" && return 0
	echo "generated files are out of date: run \`$dfix\` and commit the result"
	return 1
}

# good_spec SPEC: a spec in tests/specs/good/ (constructs the real families do not use, such as
# signed fields): its header and self-test generated into $B/good/NAME, the self-test built with the
# strict warnings and run, with gcc and with clang
good_spec() {
	gd=$B/good/$(basename "$1" .yaml)
	mkdir -p "$gd/pmregs" && cp include/pmregs/base*.h include/pmregs/version.h "$gd/pmregs/" &&
		"$PYTHON" gen/generate.py --out "$gd/pmregs" "$1" && "$PYTHON" gen/generate.py --selftest --out "$gd" "$1" ||
		return 1
	for gcc_or_clang in gcc clang; do
		have $gcc_or_clang || continue
		$gcc_or_clang -std=c99 $WARN -O1 -I"$gd" "$gd"/selftest_*.c -o "$gd/selftest.$gcc_or_clang" &&
			"$gd/selftest.$gcc_or_clang" || return 1
	done
}

# gen_current: the generated files were current before make check ran (the Makefile says in
# PMREGS_STALE why it had to regenerate them), and are now
gen_current() {
	if [ -n "${PMREGS_STALE:-}" ]; then
		echo "make check regenerated the generated files first: $PMREGS_STALE"
		echo "commit what \`make\` regenerates together with the change that needs it"
		return 1
	fi
	sh gen/uptodate.sh
}

have_gen=
[ -n "$PYTHON" ] && "$PYTHON" -c 'import yaml, jinja2' 2>/dev/null && have_gen=1

# the generated self-tests, by name: one per spec (gen/generate.py --selftest)
selftests() {
	[ -n "$have_gen" ] || return 0
	for s in spec/*.yaml; do
		[ -f "$s" ] && echo "$B/selftest/selftest_$(basename "$s" .yaml).c"
	done
}

# ---- the suite -------------------------------------------------------------------------
suite() {
	# ---- licence ------------------------------------------------------------------
	check "every source and generated file carries the SPDX licence line" sh tests/licence.sh

	# ---- generated files: current, and regenerated by content -------------------------
	check "generated files record the specs, generator and VERSION they come from (gen/uptodate.sh)" gen_current
	check "make regenerates by content, never by file times (a fresh clone runs no generator)" sh tests/gen/no_regen.sh "$B/no_regen"

	# ---- generator ----------------------------------------------------------------
	gen_selftest=0
	if [ -n "$have_gen" ]; then
		always=1 check "generate self-tests" "$PYTHON" gen/generate.py --selftest --out "$B/selftest" spec/*.yaml
		gen_selftest=$last
		check "generator unit tests" "$PYTHON" -m unittest discover -s tests/gen -t . -q
		check "headers match the specs (no drift)" drift "make" "$PYTHON" gen/generate.py --check --out include/pmregs spec/*.yaml
		check "reference pages match the specs (no drift)" drift "make doc" "$PYTHON" gen/generate.py --doc --check --out doc spec/*.yaml
		for spec in tests/specs/bad/*.yaml; do
			[ -f "$spec" ] || continue
			check "bad spec $(basename "$spec")" "$PYTHON" tests/gen/expect_error.py "$spec"
		done
		for spec in tests/specs/good/*.yaml; do
			[ -f "$spec" ] || continue
			check "good spec $(basename "$spec"): self-test with gcc and clang" good_spec "$spec"
		done
		# property test: random valid specs compile in five modes and pass their self-tests, random
		# mutations give located errors; the seed is random unless PMREGS_RANDOM_SEED is set, and printed
		check "random specs: 300 compiled in 5 modes and self-tested, 100 mutants refused (seed ${PMREGS_RANDOM_SEED:-random})" \
			"$PYTHON" tests/gen/random_specs.py --count 300 --mutants 100 ${PMREGS_RANDOM_SEED:+--seed "$PMREGS_RANDOM_SEED"}
	else
		skip "generator tests" "no python3 with PyYAML and Jinja2 (Debian: apt-get install python3-yaml python3-jinja2)"
	fi

	# ---- C: generated self-tests, hand-written tests and examples -------------------
	# native_<name> is the check whose run leaves $B/<name>.out, the output other targets must match
	for src in $(selftests) tests/c/test_*.c examples/*.c; do
		[ -f "$src" ] || [ "${src#"$B"/selftest/}" != "$src" ] || continue
		n=$(basename "$src" .c)
		dep=0
		[ "${src#"$B"/selftest/}" != "$src" ] && dep=$gen_selftest
		libs=
		[ -f "$src" ] && grep -q 'pmregs-test: libm' "$src" && libs=-lm
		after=$dep always=1 check "$n (gcc -O2)" build_run "$B/$n" gcc -std=c99 $WARN -O2 -Iinclude "$src" $libs
		eval "native_$(printf '%s' "$n" | tr -c 'A-Za-z0-9_' '_')=$last"
		if have clang; then
			after=$dep check "$n (clang, ASan+UBSan)" build_run "$B/$n.san" clang -std=c99 $WARN -O1 -g $SAN -Iinclude "$src" $libs
		else
			skip "$n (clang, ASan+UBSan)" "clang not installed (Debian: apt-get install clang)"
		fi
	done

	# ---- compile matrix: every header, alone, in every standard ---------------------
	for h in include/pmregs/*.h; do
		hn=$(basename "$h")
		printf '#include <pmregs/%s>\nint pmregs_matrix_tu;\n' "$hn" >"$B/tu_$hn.c"
		# C++: every builder and accessor macro expanded too, with the C++-only style warnings on
		sh tests/cxx/macro_tu.sh "$h" >"$B/tu_$hn.cc"
		for cc in gcc clang; do
			have $cc || {
				skip "$hn $cc" "$cc not installed"
				continue
			}
			for std in c99 c11 c17; do
				check "$hn $cc -std=$std" $cc -std=$std $WARN -Iinclude -c "$B/tu_$hn.c" -o "$B/tu_$hn.$cc.$std.o"
			done
		done
		for cxx in g++ clang++; do
			have $cxx || {
				skip "$hn $cxx" "$cxx not installed"
				continue
			}
			cxxwarn="-Wold-style-cast -Wzero-as-null-pointer-constant"
			[ $cxx = g++ ] && cxxwarn="$cxxwarn -Wuseless-cast"
			for std in c++11 c++17; do
				check "$hn $cxx -std=$std" $cxx -std=$std $WARN $cxxwarn -Iinclude -c "$B/tu_$hn.cc" -o "$B/tu_$hn.$cxx.$std.o"
			done
		done
	done
	printf '#include <pmregs/pmregs.h>\nint pmregs_freestanding_tu;\n' >"$B/free.c"
	check "pmregs.h -ffreestanding -nostdlib" gcc -std=c99 $WARN -ffreestanding -nostdlib -Iinclude -c "$B/free.c" -o "$B/free.o"

	# ---- misuses that must not compile ------------------------------------------------
	# each with every compiler, as C99 and C11 (clang and gcc) and C++11 (g++ and clang++); the
	# expect-error pattern must match the errors each one prints
	for src in tests/c/fail/*.c; do
		[ -f "$src" ] || continue
		n=$(basename "$src" .c)
		want=$(sed -n 's/.*expect-error: *//p' "$src" | head -n 1 | sed 's/ *\*\/ *$//')
		# C11 and later: a too-wide constant is refused by a static assertion that says so
		case $want in *"does not fit its field"*) want11="static.assert.*pmregs: constant does not fit its field" ;; *) want11=$want ;; esac
		for mode in gcc:c99 clang:c99 gcc:c11 clang:c11 g++:c++11 clang++:c++11; do
			cc=${mode%%:*} std=${mode#*:}
			have $cc || continue
			w=$want
			[ $std = c11 ] && w=$want11
			x=c
			case $std in c++*) x=c++ ;; esac
			check "$n must not compile ($cc -std=$std)" sh -c '! '"$cc"' -x '"$x"' -std='"$std"' -Iinclude -c "$1" -o /dev/null 2>"$2" && cat "$2" && grep -Eq "$3" "$2"' _ "$src" "$LOG/$n.$cc.$std.err" "$w"
		done
	done

	# ---- cross-check against libpfm4 ---------------------------------------------------
	if [ -f /usr/include/perfmon/pfmlib.h ]; then
		for src in tests/pfm/*.c; do
			[ -f "$src" ] || continue
			n=$(basename "$src" .c)
			check "$n (libpfm4)" build_run "$B/$n" gcc -std=c99 $WARN -O1 -Iinclude "$src" -lpfm
		done
	else
		skip "libpfm4 cross-checks" "libpfm4-dev is not installed (apt-get install libpfm4-dev)"
	fi

	# ---- install + pkg-config ----------------------------------------------------------
	if have pkg-config; then
		check "make install/uninstall: DESTDIR and prefix with spaces, a second prefix, pkg-config build" sh tests/install.sh "$B/install"
	else
		skip "install test" "pkg-config not installed (Debian: apt-get install pkg-config)"
	fi

	# ---- pmregs-decode: golden outputs, --json against the accessors, SVG, bad arguments ----
	. tests/cli/checks.sh

	# ---- the C examples and signatures in the reference pages -------------------------
	. tests/doc/checks.sh

	# ---- where drivers live: kernel module, assembler, 32-bit, big-endian, CMake ------
	. tests/port/checks.sh

	# ---- libFuzzer smoke runs (tests/fuzz) --------------------------------------------
	. tests/fuzz/checks.sh
}

suite
total=$nlisted
if [ "$total" = 0 ]; then
	echo "no check matches T=$T"
	exit 1
fi
MODE=run
nlisted=0 seq=0
suite_w0=
[ -r /proc/uptime ] && read -r suite_w0 _ </proc/uptime
suite
while [ "$nactive" -gt 0 ]; do
	sleep 0.1
	reap
done
wait
reap

if [ -f "$RES/failed" ]; then
	echo
	echo "failed (check: log):"
	sed 's/^/  /' "$RES/failed"
fi
suite_wall=?
[ -n "$suite_w0" ] && read -r suite_w1 _ </proc/uptime && suite_wall=$(echo "$suite_w0 $suite_w1" | awk '{ printf "%.0f", $2 - $1 }')
times >"$RES/suite.cpu"
suite_cpu=$(sed -n 2p "$RES/suite.cpu" | awk 'function sec(s) { split(s, p, "m"); sub("s", "", p[2]); return p[1] * 60 + p[2] } { print sec($1) + sec($2) }')
timing_report "$suite_cpu" "$suite_wall"
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
