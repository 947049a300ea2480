#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Whether the committed generated files (include/pmregs/*.h except the hand-written base*.h, and
# doc/) were generated from the specs, the generator and VERSION as they are now. It decides by
# content, never by file times (a fresh clone's times say nothing): each family header, tools
# header and reference page records its spec's SHA-256, version.h records VERSION, and version.h
# and doc/README.md record the SHA-256 of the generator's sources (gen/**/*.py and *.j2, the
# same sum pmregs_gen.generator_sha256() computes).
#
# The catalogue headers (include/pmregs/FAMILY_CATALOG.h and catalogs.h, from spec/FAMILY/CATALOG/*.yaml)
# record the SHA-256 of their family's spec and of each data file, and catalogs.h the generator's.
#
#   sh gen/uptodate.sh           exit 0: up to date; 1: the first reason to regenerate, on stdout
#   sh gen/uptodate.sh catalogs  the same for the catalogue headers
set -u
cd "$(dirname "$0")/.." || exit 2

stale() {
	echo "$1"
	exit 1
}
has() { [ -f "$2" ] && grep -qF -- "$1" "$2"; }

version=$(cat VERSION)
has "PMREGS_VERSION_STRING \"$version\"" include/pmregs/version.h ||
	stale "VERSION ($version) differs from include/pmregs/version.h"

gen_sum=$(find gen -type f \( -name '*.py' -o -name '*.j2' \) ! -path '*/__pycache__/*' | LC_ALL=C sort |
	xargs sha256sum | sha256sum | cut -d ' ' -f 1)
for f in include/pmregs/version.h doc/README.md; do
	has "Generator sources: sha256 $gen_sum " "$f" || stale "the generator changed since $f was generated"
done

if [ "${1-}" = catalogs ]; then
	cats=0
	for d in spec/*/*/; do
		[ -d "$d" ] || continue
		set -- "$d"*.yaml
		[ -f "$1" ] || continue
		cats=1
		fam=$(basename "$(dirname "$d")")
		h="include/pmregs/${fam}_$(basename "$d").h"
		for s in "spec/$fam.yaml" "$@"; do
			sum=$(sha256sum <"$s" | cut -d ' ' -f 1)
			has "(sha256 $sum)" "$h" || stale "$s changed since $h was generated"
		done
	done
	[ $cats = 0 ] || has "Generator sources: sha256 $gen_sum " include/pmregs/catalogs.h ||
		stale "the generator changed since include/pmregs/catalogs.h was generated"
	exit 0
fi

families=
for s in spec/*.yaml; do
	[ -f "$s" ] || continue
	n=$(basename "$s" .yaml)
	families="$families $n"
	sum=$(sha256sum <"$s" | cut -d ' ' -f 1)
	for f in "include/pmregs/$n.h" "include/pmregs/${n}_tools.h" "doc/$n.md"; do
		has "(sha256 $sum)" "$f" || stale "$s changed since $f was generated"
	done
	has "#include \"$n.h\"" include/pmregs/pmregs.h || stale "include/pmregs/pmregs.h does not include $n.h"
	has "#include \"${n}_tools.h\"" include/pmregs/tools.h || stale "include/pmregs/tools.h does not include ${n}_tools.h"
	has "[$n]($n.md)" doc/README.md || stale "doc/README.md does not list $n"
done
# a family whose spec is gone
for n in $(sed -n 's/^#include "\([a-z0-9_]*\)\.h"$/\1/p' include/pmregs/pmregs.h); do
	case $n in base*) continue ;; esac
	case " $families " in *" $n "*) ;; *) stale "include/pmregs/pmregs.h includes $n.h, which has no spec" ;; esac
done
exit 0
