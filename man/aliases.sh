#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The man3 names that are not pages of their own: "NAME PAGE" for every name the NAME line of
# doc/man3/PAGE.3 lists besides PAGE (a layout's or a record's accessors). make install writes each
# as NAME.3 holding ".so man3/PAGE.3", so that `man NAME` finds every public function.
#
#   sh man/aliases.sh [DIR]       (DIR: the man3 pages, default doc/man3)
set -eu
dir=${1:-doc/man3}
# one awk over every page (a process per page would be some 1,400 of them)
set -- "$dir"/*.3
[ -f "$1" ] || exit 0
awk '
	FNR == 1 {
		prev = ""
		page = FILENAME
		sub(/.*\//, "", page)
		sub(/\.3$/, "", page)
	}
	prev == ".SH NAME" {
		sub(/ \\- .*/, "")
		gsub(/\\-/, "-")
		n = split($0, names, ", ")
		for (i = 1; i <= n; i++)
			if (names[i] != page)
				print names[i], page
		nextfile
	}
	{ prev = $0 }' "$@"
