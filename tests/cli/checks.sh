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
if [ -n "$PYTHON" ] && "$PYTHON" -c 'import json, xml.etree.ElementTree' 2>/dev/null; then
	after=$native_pmregs_decode always=1 check "tests/cli/accessor_dump.c builds (pmregs-decode: the gcc -O2 build)" cli_build
	cli_built=$last
	for g in tests/cli/golden/*.txt; do
		[ -f "$g" ] || continue
		after=$cli_built check "pmregs-decode golden $(basename "$g" .txt)" "$PYTHON" tests/cli/cli.py golden "$CB/pmregs-decode" "$g"
	done
	after=$cli_built check "pmregs-decode --json agrees with the accessors" "$PYTHON" tests/cli/cli.py json "$CB/pmregs-decode" "$CB/accessor_dump"
	after=$cli_built check "pmregs-decode --svg and doc/ diagrams are well-formed SVG" "$PYTHON" tests/cli/cli.py svg "$CB/pmregs-decode" doc
	after=$cli_built check "pmregs-decode bad arguments: documented errors and statuses" "$PYTHON" tests/cli/cli.py errors "$CB/pmregs-decode"
	after=$cli_built check "man/pmregs-decode.1 says what pmregs-decode --help says" "$PYTHON" tests/cli/cli.py man "$CB/pmregs-decode" man/pmregs-decode.1
	after=$cli_built check "pmregs-decode --version prints VERSION" "$PYTHON" tests/cli/cli.py version "$CB/pmregs-decode" VERSION
	if have groff; then
		check "man pages format without warnings (groff -man -ww)" sh -c 'for p in man/*.[1-9]; do w=$(groff -man -ww -z "$p" 2>&1); [ -z "$w" ] || { echo "$w"; exit 1; }; done'
	else
		skip "man page formatting" "groff not installed (Debian: apt-get install groff)"
	fi
else
	skip "pmregs-decode tests" "no python3 (Debian: apt-get install python3)"
fi
