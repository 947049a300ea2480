#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Every source file and every generated file (headers, reference pages and their
# SVG diagrams) starts with the SPDX licence line (on line 2 when line 1 is a "#!"
# line or an XML declaration). Prints each file that lacks it.
#
# Not source: test data whose first line has a meaning of its own (the bad
# specs' "# expect:" line, golden outputs, fuzz corpora, hex dumps), prose
# (*.md outside doc/) and LICENSE itself. doc/ is generated: its pages and diagrams
# get the line from gen/templates/page.md.j2 and diagram.svg.j2.
cd "$(dirname "$0")/.." || exit 2
id='SPDX-License-Identifier: MIT OR GPL-2.0-only'
mit='MIT OR GPL-2.0-only'
# the files to check, one per line; then their licence lines are read in one awk
list=$(mktemp) || exit 2
trap 'rm -f "$list"' EXIT
for f in $(find . \( -path ./build -o -path ./.git -o -name __pycache__ \
		-o -path ./tests/specs/bad -o -path ./tests/cli/golden -o -path ./tests/cli/data \
		-o -path ./tests/fuzz/corpus \) -prune -o -type f -print | sed 's|^\./||' | sort); do
	case $f in
	*.c | *.h | *.S | *.py | *.sh | *.yaml | *.cmake | *.in | *.j2 | man/*.[1-9] | Makefile | */Kbuild | .ci/run) ;;
	doc/*.md | doc/*.svg) ;;
	*) continue ;;
	esac
	echo "$f"
done >"$list"
# the line that must hold it: the first, or the second after a "#!" line or an XML declaration;
# imported data under its own licence (spec/*/*/*.yaml) and the catalogue headers built from it
# (include/pmregs/*.h) carry theirs
awk -v id="$id" -v mit="$mit" '
	{
		f = $0
		n++
		line = ""
		if ((getline line <f) > 0 && (line ~ /^#!/ || line ~ /^<\?xml /)) {
			line = ""
			getline line <f
		}
		close(f)
		if (index(line, id)) next
		bsd = "SPDX-License-Identifier: BSD-3-Clause"
		if (f ~ /^spec\/.*\/.*\/.*\.yaml$/ && length(line) >= length(bsd) &&
			substr(line, length(line) - length(bsd) + 1) == bsd) next
		if (f ~ /^include\/pmregs\/.*\.h$/ && index(line, "SPDX-License-Identifier: (" mit ") AND BSD-3-Clause")) next
		print f ": the first line is not the licence line (" id ")"
		bad = 1
	}
	END {
		print n + 0 " files checked"
		exit bad
	}' "$list"
