# SPDX-License-Identifier: MIT OR GPL-2.0-only
# pmregs-decode on hostile input, sourced by tests/run.sh (it uses check, skip, after=, always=, $last, $B,
# $WARN and $PYTHON): streams read in windows (a packet split between two reads, a pipe fed in odd
# chunks), /dev/zero and endless standard input in bounded memory (exit 6, --max-idle), a sample read no
# further than a sample holds, unknown names and values of any length (tests/cli_input/input.py).
CI=$B/cli_input
mkdir -p "$CI"
if [ -n "$PYTHON" ]; then
	# pmregs-decode: the gcc -O2 build of the C section, linked here
	ln -sf ../pmregs-decode "$CI/pmregs-decode"
	ci_built=$native_pmregs_decode
	after=$ci_built check "pmregs-decode: packets split across reads decode as read whole (file, odd-sized pipe)" \
		"$PYTHON" tests/cli_input/input.py windows "$CI/pmregs-decode" tests/cli/data/etrace_encap.hex
	after=$ci_built check "pmregs-decode: /dev/zero and endless stdin stop with exit 6 in 24 MiB; --sample reads one record" \
		"$PYTHON" tests/cli_input/input.py endless "$CI/pmregs-decode"
	after=$ci_built check "pmregs-decode: unknown names and values of any length give the documented statuses" \
		"$PYTHON" tests/cli_input/input.py names "$CI/pmregs-decode"
else
	skip "pmregs-decode input checks" "no python3 (Debian: apt-get install python3)"
fi
