# SPDX-License-Identifier: MIT OR GPL-2.0-only
# libFuzzer smoke runs, sourced by tests/run.sh (it uses check, skip, probe, have, $B, $TESTFLAGS).
#
# Every tests/fuzz/fuzz_NAME.c is built with clang -fsanitize=fuzzer,address,undefined
# and run for 50000 inputs (or the number a `pmregs-fuzz-runs: N` line in it gives, for the
# slower targets) starting from its checked-in corpus tests/fuzz/corpus/NAME/ (new inputs go
# to the build folder, never into the corpus), built with $TESTFLAGS (the compiler chooses what to
# inline: the same code paths, a fraction of the build time) at -O1, or at the level a
# `pmregs-fuzz-opt: -O0` line gives: for a target whose build costs more than its runs (the
# sanitizers check the same at -O0); `pmregs-fuzz-opt: -O1 -fno-inline` for one whose -O1 build
# spends most of its time inlining (each function instrumented once, the same code). Line tables
# only (-gline-tables-only): a sanitizer's report names files and lines, the build skips the rest
# of the debug information. A `pmregs-fuzz-cmp: off` line builds the target without libFuzzer's
# comparison tracing (-fno-sanitize-coverage=trace-cmp): for a target whose smoke run reaches the
# same edges without it (each such line says what was measured), where the tracing hooks took most
# of the run. `make fuzz` runs longer, at -O1, with every instrumentation, as users build.
FZ=$B/fuzz
mkdir -p "$FZ"
fuzz_ok=
if have clang; then
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$FZ/probe.c"
	probe fuzzer clang -fsanitize=fuzzer "$FZ/probe.c" -o "$FZ/probe" && fuzz_ok=1
fi
for src in tests/fuzz/fuzz_*.c; do
	[ -f "$src" ] || continue
	n=$(basename "$src" .c)
	name=${n#fuzz_}
	if [ -z "$fuzz_ok" ]; then
		skip "$n (libFuzzer smoke run)" "clang cannot link -fsanitize=fuzzer (Debian: clang, libclang-rt-14-dev)"
		continue
	fi
	mkdir -p "$FZ/$name.new"
	runs=$(sed -n 's/.*pmregs-fuzz-runs: *\([0-9]*\).*/\1/p' "$src" | head -n 1)
	opt=$(sed -n 's/.*pmregs-fuzz-opt: *\(-O[0-3]\( -fno-inline\)\{0,1\}\).*/\1/p' "$src" | head -n 1)
	grep -q 'pmregs-fuzz-cmp: off' "$src" && opt="${opt:--O1} -fno-sanitize-coverage=trace-cmp"
	early=1 check "$n (libFuzzer smoke run, ASan+UBSan)" sh -c 'clang -std=c99 -gline-tables-only $6 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all '"$WARN $TESTFLAGS"' -Iinclude "$1" -o "$2" && "$2" -runs="$5" -max_len=256 -artifact_prefix="$2-" "$3" "$4"' \
		_ "$src" "$FZ/$n" "$FZ/$name.new" "tests/fuzz/corpus/$name" "${runs:-50000}" "${opt:--O1}"
done

# fuzz_snprint.c must call every _snprint function the headers define
fuzz_snprint_all() {
	missing=0
	for f in $(sed -n 's/^static inline size_t \(pmregs_[a-z0-9_]*snprint\)(.*/\1/p' include/pmregs/*.h); do
		grep -q "\<$f\>" tests/fuzz/fuzz_snprint.c || { echo "not in tests/fuzz/fuzz_snprint.c: $f"; missing=1; }
	done
	return $missing
}
check "fuzz_snprint.c covers every _snprint function" fuzz_snprint_all
