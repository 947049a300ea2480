#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The whole test suite (`make check`). Every check prints one line when it ends:
#   [n/N] PASS name | [n/N] FAIL name (then the tail of its log) | [n/N] SKIP name: reason
# (n counts the checks that have ended), then the failed checks are listed again with their
# logs in a fixed order, the suite's CPU and wall seconds with the ten checks that took the
# most CPU, and the last two lines are "N skipped" and "N passed, N failed".
#
# Checks are found, not listed: every spec, header, example, tests/c/test_*.c,
# tests/c/fail/*.c and tests/specs/bad/*.yaml takes part as soon as it exists.
#
# Checks run in parallel, JOBS at a time (default: the number of CPUs), the long ones first;
# each writes its own log (build/tests/log/N.log). T=pattern runs only the checks whose name
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
# the suite's generator runs share their compiled templates (Jinja's bytecode cache, by each template's
# text, in $B: nothing is kept from an earlier run)
PMREGS_TEMPLATE_CACHE=$(cd "$B" && pwd)/templates
export PMREGS_TEMPLATE_CACHE
mkdir -p "$PMREGS_TEMPLATE_CACHE"
# ... and their compiled Python modules (in $B too, so the source tree gets no __pycache__): each module
# of the generator is compiled once per run instead of in every Python the checks start (about 0.3 s
# CPU each), also where PYTHONDONTWRITEBYTECODE would have every one compile it again
PYTHONPYCACHEPREFIX=$(cd "$B" && pwd)/pycache
export PYTHONPYCACHEPREFIX
unset PYTHONDONTWRITEBYTECODE

WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
# g++'s C++-only style warnings, with WARN in the compile matrix
CXXSTYLE="-Wold-style-cast -Wzero-as-null-pointer-constant -Wuseless-cast"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# The sanitizer and libFuzzer builds link with lld where clang can (san_ld; Debian: lld): the same
# program, about half the link's CPU (their runtimes are big archives); without it, with the default ld.
SANLD=
# Test programs outside their native gcc -O2 build (sanitizers, 32-bit, big-endian, fuzzing) let the
# compiler choose what to inline in the codecs' hot paths: the same results, a fraction of the build
# time of a test that calls them in many places (and at -O0, where the examples build in those modes,
# the same code runs either way: nothing is a compile-time constant there). The native builds keep the
# default, what users compile, but for the tests that say `pmregs-test: no-force-inline` (each says
# why): no path they check depends on the inlining (a test that checks one that does forces just
# that one inline), and their native builds then take a fraction of the time.
TESTFLAGS=-DPMREGS_NO_FORCE_INLINE

# ---- the runner ------------------------------------------------------------------------
# suite() runs once and registers every check. Each check is forked at once as a background
# job that waits, blocked on its own FIFO and using no CPU, until the scheduler releases it:
# so it sees this shell's variables as they were when it was registered. Anything a check
# needs from another runs inside a check, never while registering. Once every check is
# registered, the scheduler releases JOBS at a time: first those registered with early=1
# (long ones: property tests, fuzzing, long replays), then the others in order, each only
# after the check it depends on has passed. No polling: a job that ends says so on a FIFO.
#
#   check NAME CMD...            run CMD (a command or a function of this shell), log its output
#   after=K check NAME CMD...    the same, once check K (a $last value) has passed
#   always=1 check NAME CMD...   run it even when T excludes it (others need it; it is not listed)
#   early=1 check NAME CMD...    release it before the others (with after=, once K has passed)
#   skip NAME REASON             a check that cannot run here, and why
# After check, $last is its number, for after=.

seq=0      # every registered job, listed or not
nlisted=0  # listed checks and skips: N
last=0
after=0 always=0 early=0
skips=     # numbers of the skips, in order

listed() {
	case $1 in *$T*) return 0 ;; esac
	return 1
}

# job I CMD...: the body of a background job: wait for the scheduler's word, then run CMD
# (without the scheduler's FIFO), keep its status and CPU and wall seconds, and say it ended
job() {
	ji=$1
	shift
	read -r jgo <"$RES/$ji.go"
	[ "$jgo" = run ] || return 0
	# CPU seconds: `times` before and after (its second line: the children's user and system
	# time); wall seconds from /proc/uptime
	times >"$RES/$ji.cpu0"
	jw0=
	[ -r /proc/uptime ] && read -r jw0 _ </proc/uptime
	("$@") 3>&-
	jrc=$?
	times >"$RES/$ji.cpu1"
	[ -n "$jw0" ] && read -r jw1 _ </proc/uptime && echo "$jw0 $jw1" >"$RES/$ji.wall"
	echo $jrc >"$RES/$ji.rc"
	echo "$ji" >&3
}

# fifos: the FIFOs of the next 64 jobs, made in one go
fifos_made=0
fifos() {
	[ "$seq" -le "$fifos_made" ] && return 0
	fl= fi=$fifos_made
	while [ "$fi" -lt $((fifos_made + 64)) ]; do
		fi=$((fi + 1))
		fl="$fl $RES/$fi.go"
	done
	# shellcheck disable=SC2086
	mkfifo $fl
	fifos_made=$fi
}

check() {
	cname=$1
	shift
	cdep=$after cforce=$always cearly=$early
	after=0 always=0 early=0
	if listed "$cname"; then
		clisted=1
		nlisted=$((nlisted + 1))
	elif [ "$cforce" = 1 ]; then
		clisted=0
	else
		return 0
	fi
	seq=$((seq + 1))
	last=$seq
	eval "dep_$seq=$cdep early_$seq=$cearly listed_$seq=$clisted"
	printf '%s' "$cname" >"$RES/$seq.name"
	fifos
	job "$seq" "$@" >"$LOG/$seq.log" 2>&1 </dev/null &
}

skip() {
	listed "$1" || return 0
	nlisted=$((nlisted + 1))
	seq=$((seq + 1))
	eval "dep_$seq=skip listed_$seq=1"
	printf '%s: %s' "$1" "$2" >"$RES/$seq.name"
	skips="$skips $seq"
}

# report I: the line of job I, which has ended (nothing for a job that is not listed)
ndone=0 passed=0 failed=0 skipped=0
report() {
	eval "rl=\$listed_$1"
	[ "$rl" = 1 ] || return 0
	ndone=$((ndone + 1))
	read -r rrc <"$RES/$1.rc"
	read -r rname <"$RES/$1.name" || :
	if [ "$rrc" = 0 ]; then
		passed=$((passed + 1))
		echo "[$ndone/$nlisted] PASS $rname"
	else
		failed=$((failed + 1))
		echo "[$ndone/$nlisted] FAIL $rname"
		tail -n 25 "$LOG/$1.log" | sed 's/^/    /'
		echo "$rname: $LOG/$1.log" >"$RES/$1.failed"
	fi
}

# schedule: release the registered jobs, JOBS at a time, and report each as it ends
schedule() {
	# what runs: the listed checks and, through after=, what they need (it precedes them)
	si=$seq
	while [ "$si" -gt 0 ]; do
		eval "sl=\$listed_$si sd=\$dep_$si sn=\${needed_$si:-}"
		if [ "$sd" != skip ] && { [ "$sl" = 1 ] || [ -n "$sn" ]; }; then
			eval "needed_$si=1"
			[ "$sd" = 0 ] || eval "needed_$sd=1"
		fi
		si=$((si - 1))
	done
	first= rest=
	si=0
	while [ "$si" -lt "$seq" ]; do
		si=$((si + 1))
		eval "sd=\$dep_$si se=\${early_$si:-0} sn=\${needed_$si:-}"
		[ "$sd" = skip ] && continue
		if [ -z "$sn" ]; then
			echo no >"$RES/$si.go"
		elif [ "$se" = 1 ]; then
			first="$first $si"
		else
			rest="$rest $si"
		fi
	done
	for si in $skips; do
		ndone=$((ndone + 1))
		skipped=$((skipped + 1))
		read -r sname <"$RES/$si.name" || :
		echo "[$ndone/$nlisted] SKIP $sname"
	done
	pending="$first$rest"
	nactive=0
	while :; do
		still= full=
		for si in $pending; do
			if [ -z "$full" ]; then
				eval "sd=\$dep_$si"
				sdrc=0
				[ "$sd" = 0 ] || { [ -f "$RES/$sd.rc" ] && read -r sdrc <"$RES/$sd.rc"; } || sdrc=wait
				if [ "$sdrc" = 0 ]; then
					echo run >"$RES/$si.go"
					nactive=$((nactive + 1))
					[ "$nactive" -ge "$JOBS" ] && full=1
					continue
				elif [ "$sdrc" != wait ]; then
					read -r sdname <"$RES/$sd.name" || :
					echo "not run: it needs \"$sdname\", which failed (log: $LOG/$sd.log)" >"$LOG/$si.log"
					echo 1 >"$RES/$si.rc"
					echo no >"$RES/$si.go"
					report "$si"
					continue
				fi
			fi
			still="$still $si"
		done
		pending=$still
		[ "$nactive" -gt 0 ] || break
		read -r sfin <&3
		nactive=$((nactive - 1))
		report "$sfin"
	done
	if [ -n "$pending" ]; then
		echo "internal error: checks left that can never start:$pending"
		failed=$((failed + 1))
	fi
}

# timing_report CPU WALL: the suite's CPU and wall seconds, and the ten checks that took the most CPU
# (one awk reads every check's name, times and wall seconds: a few processes per check were some
# 3,000 processes, seconds of CPU after the last check)
timing_report() {
	for ti in "$RES"/*.cpu1; do
		[ -f "$ti" ] && echo "${ti%.cpu1}"
	done | awk -v total="$1" -v wall="$2" -v jobs="$JOBS" '
		function sec(s) { split(s, p, "m"); sub("s", "", p[2]); return p[1] * 60 + p[2] }
		# line2(F): the second line of file F ("" when it has none)
		function line2(f,   l, k) {
			k = 0
			while (k < 2 && (getline l <f) > 0) k++
			close(f)
			return k == 2 ? l : ""
		}
		{
			nm = ""
			getline nm <($0 ".name")
			close($0 ".name")
			split(line2($0 ".cpu0") " " line2($0 ".cpu1"), f, " ")
			w = 0
			if ((getline wline <($0 ".wall")) > 0) { split(wline, ww, " "); w = ww[2] - ww[1] }
			close($0 ".wall")
			cpu = sec(f[3]) + sec(f[4]) - sec(f[1]) - sec(f[2])
			n++; name[n] = nm; c[n] = cpu; wl[n] = w; sum += cpu
		}
		END {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (c[j] > c[i]) { t = c[i]; c[i] = c[j]; c[j] = t; t = wl[i]; wl[i] = wl[j]; wl[j] = t; t = name[i]; name[i] = name[j]; name[j] = t }
			printf "time: %.0f s CPU in all (%.0f s in the %d checks that ran), %s s wall with JOBS=%s\n", total, sum, n, wall, jobs
			printf "the ten checks that took the most CPU (CPU s, wall s):\n"
			for (i = 1; i <= n && i <= 10; i++) printf "  %7.1f %7.1f  %s\n", c[i], wl[i], name[i]
		}'
}

have() { command -v "$1" >/dev/null 2>&1; }

# probe NAME CMD...: run CMD once per suite (later calls reuse the answer); log in $LOG/probe-NAME.log
probe() {
	pname=$1
	shift
	if [ ! -f "$RES/probe-$pname" ]; then
		("$@") >"$LOG/probe-$pname.log" 2>&1 </dev/null
		echo $? >"$RES/probe-$pname"
	fi
	[ "$(cat "$RES/probe-$pname")" = 0 ]
}

# san_ld: SANLD=-fuse-ld=lld when clang links a sanitizer program with lld here (once per suite)
san_ld() {
	have clang || return 0
	printf 'int main(void) { return 0; }\n' >"$B/probe-lld.c"
	# shellcheck disable=SC2086
	probe lld clang -fuse-ld=lld $SAN "$B/probe-lld.c" -o "$B/probe-lld" && SANLD=-fuse-ld=lld
}

# build_run OUT CC ARGS...: compile with CC ARGS -o OUT, then run OUT; its standard output is
# also kept in OUT.out (the native output other targets are compared with).
build_run() {
	out=$1
	shift
	"$@" -o "$out" || return 1
	run_keep "$out"
}

# native_build_run OUT SRC [LIBS]: build_run with the native gcc -O2 build of SRC, with $TESTFLAGS when
# SRC says `pmregs-test: no-force-inline` (read when the check runs: a generated self-test is written
# by then, not when the checks are registered)
native_build_run() {
	nbflags=
	grep -q 'pmregs-test: no-force-inline' "$2" && nbflags=$TESTFLAGS
	# shellcheck disable=SC2086
	build_run "$1" gcc -std=c99 $WARN -O2 $nbflags -Iinclude "$2" ${3:-}
}

# prebuilt_run OUT BIN: build_run for a program built already by another check (BIN, copied to OUT)
prebuilt_run() {
	cp "$2" "$1" || return 1
	run_keep "$1"
}

# run_keep PROG: run PROG and print its output, kept as PROG.out when it succeeds
run_keep() {
	"$1" >"$1.out.tmp"
	brc=$?
	cat "$1.out.tmp"
	[ $brc = 0 ] && mv "$1.out.tmp" "$1.out"
	return $brc
}

# bench_compile: every tests/bench/bench_*.c passes gcc's front end with the project's warnings
bench_compile() {
	for bsrc in tests/bench/bench_*.c; do
		gcc -std=c99 $WARN -pthread -Iinclude -fsyntax-only "$bsrc" || return 1
	done
}

# san_scale SRC: the divisor of the test_scale() rounds in SRC's sanitizer and 32-bit runs: 8, or N when SRC
# says `pmregs-test: sanitizer-scale N` (it says why: the same lines and branches of the headers run at 1/N,
# measured with gcov, where the native run takes every round)
san_scale() {
	sss=$(sed -n '/.*pmregs-test: sanitizer-scale \([0-9][0-9]*\).*/{s//\1/p;q;}' "$1" 2>/dev/null)
	echo "${sss:-8}"
}

# san_build_run OUT CC ARGS...: build_run with an eighth of the test_scale() rounds (the sanitizer builds),
# or $sanscale's share (san_scale); OUT.scale says at which scale OUT.out was written (the 32-bit runs may
# compare with it)
san_build_run() {
	PMREGS_TEST_SCALE=${sanscale:-8}
	export PMREGS_TEST_SCALE
	build_run "$@" && echo "$PMREGS_TEST_SCALE" >"$1.scale"
}

# drift_result FIX DIR/PART: what tests/gen/no_drift.py found for one part (generate.py --check's messages
# and status); when it is out of date, say how to fix it
drift_result() {
	cat "$2.log" && read -r drc <"$2.rc" || return 1
	[ "$drc" = 0 ] && return 0
	echo "generated files are out of date: run \`$1\` and commit the result"
	return 1
}

# good_spec_result DIR/NAME: what tests/gen/good_specs.py found for one spec in tests/specs/good/
# (constructs the real families do not use, such as signed fields): its header and self-test generated,
# the self-test built with the strict warnings and run, with gcc and with clang, and its tools header
# compiled as C++11 with g++ and clang++
good_spec_result() {
	cat "$1.log" && read -r grc <"$1.rc" && [ "$grc" = 0 ]
}

# matrix_layouts HEADER...: a declaration per struct that each HEADER defines, sized by it, so that
# the compiler lays out every struct (-Wpadded sees only the structs a translation unit lays out, and
# one that only includes a header lays out none that no function of the header uses)
matrix_layouts() {
	for ml in "$@"; do
		sed -n -E 's/^(typedef )?struct (pmregs_[a-z0-9_]+) \{.*/struct \2/p' "include/pmregs/$ml" |
			awk -v h="${ml%.h}" '{ printf "extern char pmregs_matrix_sz_%s_%d[sizeof(%s %s)];\n", h, NR, $1, $2 }'
	done
}

# matrix_sources: the translation units of the compile matrix, written once for all its compiles.
# $B/matrix/all.c includes every header and lays out every struct they define; $B/matrix/all.cc does
# the same in C++, with every builder and accessor macro expanded (tests/cxx/macro_tu.sh), so that
# what they become in a C++ user's code is checked too. Each compiler and standard compiles these two
# once: the headers' text is the same in any order, and in one unit each is parsed once instead of
# again under every header that includes it (the matrix's 410 compiles took about 53 s of CPU, these
# 10 and the 41 checks of each header alone about 28 s). That each header is
# complete alone (includes what it uses) is checked with HEADER.c and HEADER.cc, the same per header.
matrix_sources() {
	mkdir -p "$B/matrix" || return 1
	set --
	for mh in include/pmregs/*.h; do
		mh=${mh##*/}
		set -- "$@" "$mh"
		matrix_layouts "$mh" >"$B/matrix/$mh.sz" &&
			{
				printf '#include <pmregs/%s>\nextern int pmregs_matrix_tu;\nint pmregs_matrix_tu;\n' "$mh"
				cat "$B/matrix/$mh.sz"
			} >"$B/matrix/$mh.c" &&
			{ sh tests/cxx/macro_tu.sh "include/pmregs/$mh" && cat "$B/matrix/$mh.sz"; } >"$B/matrix/$mh.cc" || return 1
	done
	{
		printf '#include <pmregs/%s>\n' "$@"
		printf 'extern int pmregs_matrix_tu;\nint pmregs_matrix_tu;\n'
		(cd "$B/matrix" && cat ./*.h.sz)
	} >"$B/matrix/all.c" &&
		{ sh tests/cxx/macro_tu.sh include/pmregs/*.h && (cd "$B/matrix" && cat ./*.h.sz); } >"$B/matrix/all.cc"
}

# matrix_alone HEADER: HEADER's translation units compiled alone, as C (gcc -std=c99) and C++ (g++
# -std=c++11), with the strict warnings: it includes what it uses
matrix_alone() {
	gcc -std=c99 $WARN -Iinclude -fsyntax-only "$B/matrix/$1.c" &&
		g++ -std=c++11 $WARN $CXXSTYLE -Iinclude -fsyntax-only "$B/matrix/$1.cc"
}

# matrix_c HEADER CC -std=STD ARGS...: HEADER's C translation unit (matrix_sources) compiled with
# CC -std=STD ARGS (its object named by CC and STD)
matrix_c() {
	mh=$1
	shift
	"$@" -Iinclude -c "$B/matrix/$mh.c" -o "$B/matrix/$mh.$1$2.o"
}

# matrix_cxx HEADER CXX ARGS...: the same with HEADER's C++ translation unit
matrix_cxx() {
	mh=$1
	shift
	"$@" -Iinclude -c "$B/matrix/$mh.cc" -o "$B/matrix/$mh.$1$2.o"
}

# bad_spec_result FILE: what tests/gen/expect_error.py --batch found for one bad spec
bad_spec_result() {
	cat "$1.log" && read -r brc <"$1.rc" && [ "$brc" = 0 ]
}

# gen_current: the generated files were current before make check ran (the Makefile says in
# PMREGS_STALE why it had to regenerate them), and are now
gen_current() {
	if [ -n "${PMREGS_STALE:-}" ]; then
		echo "make check regenerated the generated files first: $PMREGS_STALE"
		echo "commit what \`make\` regenerates together with the change that needs it"
		return 1
	fi
	sh gen/uptodate.sh && sh gen/uptodate.sh catalogs
}

have_gen=
[ -n "$PYTHON" ] && "$PYTHON" -c 'import yaml, jinja2' 2>/dev/null && have_gen=1

# the generated self-tests, by name: one per spec (gen/generate.py --selftest)
selftests() {
	[ -n "$have_gen" ] || return 0
	for s in spec/*.yaml; do
		s=${s##*/}
		[ -f "spec/$s" ] && echo "$B/selftest/selftest_${s%.yaml}.c"
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
		early=1 check "generator unit tests" "$PYTHON" -m unittest discover -s tests/gen -t . -q
		# the generator's --check of headers, reference pages and catalogue headers in one Python
		# (tests/gen/no_drift.py), then a check of each reads its result
		always=1 check "no drift: the generator's --check of headers, pages and catalogues" "$PYTHON" tests/gen/no_drift.py "$B/drift" spec/*.yaml
		drift_run=$last
		after=$drift_run check "headers match the specs (no drift)" drift_result "make" "$B/drift/headers"
		after=$drift_run check "reference pages match the specs (no drift)" drift_result "make doc" "$B/drift/docs"
		after=$drift_run check "catalogue headers match their data (no drift)" drift_result "make" "$B/drift/catalogs"
		# every bad spec in one Python (a process forked per spec), then a check per spec reads its result
		always=1 check "bad specs: run the generator on each" "$PYTHON" tests/gen/expect_error.py --batch "$B/bad" tests/specs/bad/*.yaml
		bad_run=$last
		for spec in tests/specs/bad/*.yaml; do
			[ -f "$spec" ] || continue
			after=$bad_run check "bad spec ${spec##*/}" bad_spec_result "$B/bad/${spec##*/}"
		done
		# every good spec generated, self-tested (one program per compiler) and compiled as C++ in one
		# Python (tests/gen/good_specs.py), then a check per spec reads its result
		always=1 check "good specs: generate, build and run them together" "$PYTHON" tests/gen/good_specs.py "$B/good" tests/specs/good/*.yaml
		good_run=$last
		for spec in tests/specs/good/*.yaml; do
			[ -f "$spec" ] || continue
			after=$good_run check "good spec $(basename "$spec"): self-test with gcc and clang" good_spec_result "$B/good/$(basename "$spec" .yaml)"
		done
		# property test: random valid specs compile in five modes and pass their self-tests, random
		# mutations give located errors; the seed is random unless PMREGS_RANDOM_SEED is set, and printed
		early=1 check "random specs: 200 compiled in 5 modes and self-tested, 100 mutants refused (seed ${PMREGS_RANDOM_SEED:-random})" \
			"$PYTHON" tests/gen/random_specs.py --count 200 --mutants 100 ${PMREGS_RANDOM_SEED:+--seed "$PMREGS_RANDOM_SEED"}
	else
		skip "generator tests" "no python3 with PyYAML and Jinja2 (Debian: apt-get install python3-yaml python3-jinja2)"
	fi

	# ---- C: generated self-tests, hand-written tests and examples -------------------
	san_ld
	# pmregs-decode as make builds it, once, with gcc -O2 and Debian's hardening flags (the package
	# check builds at -O0, noopt): it is the native build (below), and the install and CMake checks
	# start from a copy of it
	always=1 check "make builds pmregs-decode (for the install checks)" \
		make -s BUILD="$B/make" CC=gcc CFLAGS="-O2 -fstack-protector-strong -Wformat -Werror=format-security -Wdate-time -D_FORTIFY_SOURCE=2 -Wl,-z,relro" "$B/make/examples/pmregs-decode"
	make_built=$last
	# native_<name> is the check whose run leaves $B/<name>.out, the output other targets must match
	for src in $(selftests) tests/c/test_*.c examples/*.c; do
		[ -f "$src" ] || [ "${src#"$B"/selftest/}" != "$src" ] || continue
		n=${src##*/}
		n=${n%.c}
		dep=0
		[ "${src#"$B"/selftest/}" != "$src" ] && dep=$gen_selftest
		libs=
		[ -f "$src" ] && grep -q 'pmregs-test: libm' "$src" && libs=-lm
		if [ "$src" = examples/pmregs-decode.c ]; then
			after=$make_built always=1 check "$n (gcc -O2)" prebuilt_run "$B/$n" "$B/make/examples/$n"
		else
			# a test whose random rounds take the time is among the longest checks, and its 32-bit and
			# big-endian runs wait for it: it starts first
			nearly=0
			grep -q 'pmregs-test: long-run' "$src" 2>/dev/null && nearly=1
			after=$dep always=1 early=$nearly check "$n (gcc -O2)" native_build_run "$B/$n" "$src" $libs
		fi
		eval "native_$(printf '%s' "$n" | tr -c 'A-Za-z0-9_' '_')=$last"
		if have clang; then
			# the sanitizers check the same at -O0, which builds several times faster; the hand-written
			# tests start first, and those whose random rounds take the time (pmregs-test: long-run)
			# run at -O1 (with -fno-inline where inlining costs more build than it saves in the run:
			# pmregs-test: no-inline). They run an eighth of the test_scale() rounds: the sanitizers
			# watch the same code paths for undefined behaviour and bad accesses, the native build runs
			# every round, and the libFuzzer runs search for the inputs that matter to a sanitizer.
			# Line tables only (-gline-tables-only): a report still names each frame's function, file
			# and line; nothing reads the variables' debug information, whose output cost more build.
			# A test that says `pmregs-test: sanitizer-scale N` runs 1/N of its rounds there, short enough
			# for -O0 whatever else it says.
			sanopt=-O0
			sanscale=$(san_scale "$src")
			if [ "$sanscale" = 8 ]; then
				grep -q 'pmregs-test: long-run' "$src" 2>/dev/null && sanopt=-O1
				grep -q 'pmregs-test: no-inline' "$src" 2>/dev/null && sanopt="$sanopt -fno-inline"
			fi
			case $src in
			tests/c/*) after=$dep early=1 check "$n (clang, ASan+UBSan)" san_build_run "$B/$n.san" clang -std=c99 $WARN $sanopt -gline-tables-only $SAN $SANLD $TESTFLAGS -Iinclude "$src" $libs ;;
			*) after=$dep check "$n (clang, ASan+UBSan)" build_run "$B/$n.san" clang -std=c99 $WARN -O0 -gline-tables-only $SAN $SANLD $TESTFLAGS -Iinclude "$src" $libs ;;
			esac
		else
			skip "$n (clang, ASan+UBSan)" "clang not installed (Debian: apt-get install clang)"
		fi
	done
	# the benches (make bench) are not run here; that they still compile, warning-free, is checked
	check "benches compile (gcc -fsyntax-only, the project's warnings)" bench_compile

	# ---- compile matrix: every header in every standard, and each alone ---------------
	# gcc and g++ with the strict warning set (g++ also with the C++-only style warnings); clang and
	# clang++ with every warning they have (-Weverything; in C++ but the C++98 compatibility ones)
	always=1 check "compile matrix: its translation units, all headers in one and each alone" matrix_sources
	matrix_src=$last
	for cc in gcc clang; do
		have $cc || {
			skip "every header in one translation unit: $cc" "$cc not installed"
			continue
		}
		ccwarn=$WARN
		[ $cc = clang ] && ccwarn="-Weverything -Werror"
		for std in c99 c11 c17; do
			after=$matrix_src check "every header in one translation unit: $cc -std=$std$([ $cc = clang ] && echo ' -Weverything')" matrix_c all $cc -std=$std $ccwarn
		done
	done
	for cxx in g++ clang++; do
		have $cxx || {
			skip "every header in one translation unit: $cxx" "$cxx not installed"
			continue
		}
		cxxwarn="$WARN $CXXSTYLE"
		[ $cxx = clang++ ] && cxxwarn="-Weverything -Wno-c++98-compat -Wno-c++98-compat-pedantic -Werror"
		for std in c++11 c++17; do
			after=$matrix_src check "every header in one translation unit: $cxx -std=$std$([ $cxx = clang++ ] && echo ' -Weverything')" matrix_cxx all $cxx -std=$std $cxxwarn
		done
	done
	for h in include/pmregs/*.h; do
		if have g++; then
			after=$matrix_src check "${h##*/} alone (gcc -std=c99, g++ -std=c++11)" matrix_alone "${h##*/}"
		else
			skip "${h##*/} alone" "g++ not installed"
		fi
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
	# (make's build of pmregs-decode: the C section's make_built)
	if have pkg-config; then
		after=$make_built check "make install/uninstall: DESTDIR and prefix with spaces, a second prefix, pkg-config build" \
			sh tests/install.sh "$B/install" "$B/make"
	else
		skip "install test" "pkg-config not installed (Debian: apt-get install pkg-config)"
	fi

	# ---- pmregs-decode: golden outputs, --json against the accessors, SVG, bad arguments ----
	. tests/cli/checks.sh
	. tests/cli_input/checks.sh

	# ---- the C examples and signatures in the reference pages -------------------------
	. tests/doc/checks.sh

	# ---- where drivers live: kernel module, assembler, 32-bit, big-endian, CMake ------
	. tests/port/checks.sh

	# ---- the Debian packages -----------------------------------------------------------
	. tests/deb/checks.sh

	# ---- libFuzzer smoke runs (tests/fuzz) --------------------------------------------
	. tests/fuzz/checks.sh

	# ---- E-Trace reconstruction of real programs against qemu (tests/etrace) -----------
	. tests/etrace/checks.sh

	# ---- RISC-V instruction classes against objdump (tests/riscv) -----------------------
	. tests/riscv/checks.sh

	# ---- pmregs-decode etrace --encode: the reference encoder's bytes ------------------
	. tests/etrace/encoder/checks.sh
}

mkfifo "$RES/done"
exec 3<>"$RES/done"
suite_w0=
[ -r /proc/uptime ] && read -r suite_w0 _ </proc/uptime
suite
schedule
wait
if [ "$nlisted" = 0 ]; then
	echo "no check matches T=$T"
	exit 1
fi

if [ "$failed" -gt 0 ]; then
	echo
	echo "failed (check: log):"
	si=0
	while [ "$si" -lt "$seq" ]; do
		si=$((si + 1))
		[ -f "$RES/$si.failed" ] && sed 's/^/  /' "$RES/$si.failed"
	done
fi
suite_wall=?
[ -n "$suite_w0" ] && read -r suite_w1 _ </proc/uptime && suite_wall=$(echo "$suite_w0 $suite_w1" | awk '{ printf "%.0f", $2 - $1 }')
times >"$RES/suite.cpu"
suite_cpu=$(sed -n 2p "$RES/suite.cpu" | awk 'function sec(s) { split(s, p, "m"); sub("s", "", p[2]); return p[1] * 60 + p[2] } { print sec($1) + sec($2) }')
timing_report "$suite_cpu" "$suite_wall"
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
