# SPDX-License-Identifier: MIT OR GPL-2.0-only
# pmregs-decode (examples/pmregs-decode.c) and the reference pages, sourced by tests/run.sh
# (it uses check, skip, $B, $WARN and $PYTHON).
#
#   - golden outputs (tests/cli/golden/*.txt): status, stdout and stderr of a command line,
#     plus the field values the cited source states, checked through --json
#   - --json parsed back and compared with the layouts' own generated accessors
#     (tests/cli/accessor_dump.c)
#   - every diagram under doc/ and every --svg output is well-formed SVG
#   - bad command lines get the documented message and exit status
CB=$B/cli
mkdir -p "$CB"
if [ -n "$PYTHON" ] && "$PYTHON" -c 'import json, xml.etree.ElementTree' 2>/dev/null; then
	if gcc -std=c99 $WARN -O1 -g -Iinclude examples/pmregs-decode.c -o "$CB/pmregs-decode" >"$LOG/cli-build.log" 2>&1 &&
		gcc -std=c99 $WARN -O1 -Iinclude tests/cli/accessor_dump.c -o "$CB/accessor_dump" >>"$LOG/cli-build.log" 2>&1; then
		for g in tests/cli/golden/*.txt; do
			[ -f "$g" ] || continue
			check "pmregs-decode golden $(basename "$g" .txt)" "$PYTHON" tests/cli/cli.py golden "$CB/pmregs-decode" "$g"
		done
		check "pmregs-decode --json agrees with the accessors" "$PYTHON" tests/cli/cli.py json "$CB/pmregs-decode" "$CB/accessor_dump"
		check "pmregs-decode --svg and doc/ diagrams are well-formed SVG" "$PYTHON" tests/cli/cli.py svg "$CB/pmregs-decode" doc
		check "pmregs-decode bad arguments: documented errors and statuses" "$PYTHON" tests/cli/cli.py errors "$CB/pmregs-decode"
		check "pmregs-decode --version prints VERSION" "$PYTHON" tests/cli/cli.py version "$CB/pmregs-decode" VERSION
	else
		check "pmregs-decode and tests/cli/accessor_dump.c build" sh -c 'cat "$1"; false' _ "$LOG/cli-build.log"
	fi
else
	skip "pmregs-decode tests" "no python3"
fi
