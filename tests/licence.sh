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
bad=0
n=0
for f in $(find . \( -path ./build -o -path ./.git -o -name __pycache__ \
		-o -path ./tests/specs/bad -o -path ./tests/cli/golden -o -path ./tests/cli/data \
		-o -path ./tests/fuzz/corpus \) -prune -o -type f -print | sed 's|^\./||' | sort); do
	case $f in
	*.c | *.h | *.S | *.py | *.sh | *.yaml | *.cmake | *.in | *.j2 | man/*.[1-9] | Makefile | */Kbuild | .ci/run) ;;
	doc/*.md | doc/*.svg) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	if head -n 1 "$f" | grep -q '^#!\|^<?xml '; then
		line=$(sed -n 2p "$f")
	else
		line=$(sed -n 1p "$f")
	fi
	case $f:$line in
	*:*"$id"*) ;;
	# imported data under its own licence, and the catalogue headers built from it
	spec/*/*/*.yaml:*"SPDX-License-Identifier: BSD-3-Clause") ;;
	include/pmregs/*.h:*"SPDX-License-Identifier: ($mit) AND BSD-3-Clause"*) ;;
	*)
		echo "$f: the first line is not the licence line ($id)"
		bad=1
		;;
	esac
done
echo "$n files checked"
exit $bad
