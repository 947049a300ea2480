# SPDX-License-Identifier: MIT OR GPL-2.0-only
# pmregs-decode (examples/pmregs-decode.c) and the reference pages, sourced by tests/run.sh
# (it uses check, skip, after=, always=, $last, $B, $WARN and $PYTHON).
#
#   - golden outputs (tests/cli/golden/*.txt): status, stdout and stderr of a command line,
#     plus the field values the cited source states, checked through --json
#   - --json parsed back and compared with the layouts' own generated accessors
#     (tests/cli/accessor_dump.c)
#   - every diagram under doc/ and every --svg output is well-formed SVG
#   - bad command lines get the documented message and exit status
CB=$B/cli
mkdir -p "$CB"
# pmregs-decode: the gcc -O2 build of the C section ($native_pmregs_decode), linked here
cli_build() {
	ln -sf ../pmregs-decode "$CB/pmregs-decode" &&
		gcc -std=c99 $WARN -O1 -Iinclude tests/cli/accessor_dump.c -o "$CB/accessor_dump"
}
# cli_result DIR/NAME: what tests/cli/cli.py batch printed for one check, and its status
cli_result() {
	cat "$1.log" && read -r crc <"$1.rc" && [ "$crc" = 0 ]
}
if [ -n "$PYTHON" ] && "$PYTHON" -c 'import json, xml.etree.ElementTree' 2>/dev/null; then
	after=$native_pmregs_decode always=1 check "tests/cli/accessor_dump.c builds (pmregs-decode: the gcc -O2 build)" cli_build
	cli_built=$last
	# every golden file and the checks below in one Python (tests/cli/cli.py batch), one after the
	# other; then a check of each reads its result
	always=1 after=$cli_built check "pmregs-decode: goldens, --json, --svg, errors, man, --version in one Python" \
		"$PYTHON" tests/cli/cli.py batch "$CB/results" "$CB/pmregs-decode" "$CB/accessor_dump" doc VERSION man/pmregs-decode.1 tests/cli/golden/*.txt
	cli_run=$last
	for g in tests/cli/golden/*.txt; do
		[ -f "$g" ] || continue
		gn=${g##*/}
		gn=${gn%.txt}
		after=$cli_run check "pmregs-decode golden $gn" cli_result "$CB/results/golden-$gn"
	done
	after=$cli_run check "pmregs-decode --json agrees with the accessors" cli_result "$CB/results/json"
	after=$cli_run check "pmregs-decode --svg and doc/ diagrams are well-formed SVG" cli_result "$CB/results/svg"
	after=$cli_run check "pmregs-decode bad arguments: documented errors and statuses" cli_result "$CB/results/errors"
	after=$cli_run check "man/pmregs-decode.1 says what pmregs-decode --help says" cli_result "$CB/results/man"
	after=$cli_run check "pmregs-decode --version prints VERSION" cli_result "$CB/results/version"
	if have groff; then
		check "man pages format without warnings (groff -man -ww)" sh -c 'for p in man/*.[1-9]; do w=$(groff -man -ww -z "$p" 2>&1); [ -z "$w" ] || { echo "$w"; exit 1; }; done'
	else
		skip "man page formatting" "groff not installed (Debian: apt-get install groff)"
	fi
else
	skip "pmregs-decode tests" "no python3 (Debian: apt-get install python3)"
fi
