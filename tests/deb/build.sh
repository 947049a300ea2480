#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The Debian packages (debian/): built with dpkg-buildpackage from a copy of the checkout in OUTDIR,
# they must be two (libpmregs-dev for every architecture, pmregs-tools for this one) whose version is
# VERSION's; they must hold every header, pmregs.pc, the CMake package and manual pages. Unpacked
# with dpkg -x into a scratch root (of libpmregs-dev's man3 pages only those looked at), `man` must
# find there the page of sample functions; a program built with nothing but `pkg-config --cflags
# pmregs` (PKG_CONFIG_SYSROOT_DIR and PKG_CONFIG_LIBDIR pointing into the root) must compile from
# the root's headers and print VERSION; the unpacked pmregs-decode runs. Nothing is written in the
# checkout outside OUTDIR.
#
#   sh tests/deb/build.sh OUTDIR CC WARN
set -eu
mkdir -p "$1"
out=$(cd "$1" && pwd)
cc=$2
warn=$3
cd "$(dirname "$0")/../.." || exit 2
version=$(cat VERSION)
arch=$(dpkg --print-architecture)
top=$out/pkg
src=$top/pmregs-$version
root=$out/root
rm -rf "$top" "$root"
mkdir -p "$src" "$root"
touch "$top/started"
# what the outer make and the suite set must not steer the package build
unset MAKEFLAGS MFLAGS MAKELEVEL BUILD DESTDIR PREFIX prefix CFLAGS T JOBS

echo "== dpkg-buildpackage -us -uc -b in a copy of the checkout ($src)"
# tests/ (some 3,800 files, three quarters of the checkout) is left out: the package build does not
# run the suite (debian/rules runs only the tool it built) and no package holds a file of it
tar -cf - --exclude=./build --exclude=./.git --exclude=./tests --exclude=__pycache__ . | tar -xf - -C "$src"
# What the check does not look at is left out: the debug-symbols package (noautodbgsym: the
# stripped pmregs-decode is the same), the compression of the .deb files (DPKG_DEB_COMPRESSOR_TYPE:
# the same files inside, dpkg -x reads either) and the optimisation of pmregs-decode (noopt: -O0
# builds it in a fifth of the time; the check asserts what the packages hold and that the tool
# runs; make check's make build of it takes -O2 and the hardening flags); nocheck would spare little, the
# tool's two runs.
if ! (cd "$src" && DEB_BUILD_OPTIONS="parallel=1 noautodbgsym noopt" DPKG_DEB_COMPRESSOR_TYPE=none \
	dpkg-buildpackage -us -uc -b) >"$top/build.log" 2>&1; then
	tail -n 40 "$top/build.log"
	echo "dpkg-buildpackage failed (whole log: $top/build.log)"
	exit 1
fi
dev=$top/libpmregs-dev_${version}-1_all.deb
tools=$top/pmregs-tools_${version}-1_${arch}.deb
ls "$top"/*.deb
for d in "$dev" "$tools"; do
	[ -f "$d" ] || {
		echo "no $(basename "$d"): debian/changelog's version must be VERSION ($version) with a Debian revision"
		echo "(debian/changelog: $(head -n 1 debian/changelog))"
		exit 1
	}
done

echo "== contents"
dpkg -c "$dev" >"$top/dev.ls"
awk '{ print $6 }' "$top/dev.ls" >"$top/dev.txt"
dpkg -c "$tools" | awk '{ print $6 }' >"$top/tools.txt"
missing=0
for h in include/pmregs/*.h; do
	grep -qx "./usr/$h" "$top/dev.txt" || { echo "libpmregs-dev lacks /usr/$h"; missing=1; }
done
for f in ./usr/share/pkgconfig/pmregs.pc ./usr/share/cmake/pmregs/pmregsConfig.cmake \
	./usr/share/cmake/pmregs/pmregsConfigVersion.cmake ./usr/share/man/man7/pmregs.7.gz \
	./usr/share/man/man3/pmregs_etrace_smi_stream_next.3.gz ./usr/share/doc/libpmregs-dev/index.md \
	./usr/share/doc/libpmregs-dev/examples/pmregs-decode.c ./usr/share/doc/libpmregs-dev/copyright; do
	grep -qx "$f" "$top/dev.txt" || { echo "libpmregs-dev lacks ${f#.}"; missing=1; }
done
for f in ./usr/bin/pmregs-decode ./usr/share/man/man1/pmregs-decode.1.gz; do
	grep -qx "$f" "$top/tools.txt" || { echo "pmregs-tools lacks ${f#.}"; missing=1; }
done
[ "$missing" = 0 ]
echo "libpmregs-dev: $(grep -c . "$top/dev.txt") entries, every header of include/pmregs; pmregs-tools: $(grep -c . "$top/tools.txt")"

echo "== dpkg -x into $root; pkg-config --cflags pmregs against it"
# libpmregs-dev but for the man3 pages that `man` is not asked for below: some 5,300 files and links
# whose names dpkg -c listed above and that nothing reads here (the same archive member by member,
# what dpkg -x runs: dpkg-deb --fsys-tarfile into tar -x); each is a file to create and delete
man_pages="pmregs_etrace_smi_stream_next pmregs_x86_perfevtsel_umask_set pmregs_strerror"
man_members=
for f in $man_pages; do
	m=./usr/share/man/man3/$f.3.gz
	# a link's target as well
	man_members="$man_members $m $(awk -v m="$m" '$6 == m && $7 == "->" { print "./usr/share/man/man3/" $8 }' "$top/dev.ls")"
done
dpkg-deb --fsys-tarfile "$dev" | tar -x -C "$root" --wildcards --exclude='./usr/share/man/man3/*'
# shellcheck disable=SC2086
dpkg-deb --fsys-tarfile "$dev" | tar -x -C "$root" $man_members
dpkg -x "$tools" "$root"
cflags=$(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/share/pkgconfig" PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 \
	pkg-config --cflags pmregs)
echo "pkg-config --cflags pmregs: $cflags"
case $cflags in *"$root/usr/include"*) ;; *) echo "the flags do not name the root's include folder"; exit 1 ;; esac
modversion=$(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/share/pkgconfig" pkg-config --modversion pmregs)
[ "$modversion" = "$version" ] || { echo "pkg-config --modversion pmregs: $modversion, VERSION: $version"; exit 1; }
cat >"$top/use.c" <<'EOF'
#include <stdio.h>
#include <pmregs/pmregs.h>
#include <pmregs/tools.h>

int main(void)
{
	size_t n = 0;
	const struct pmregs_family_desc *f = pmregs_families(&n);
	(void)f;
	printf("%s %d\n", PMREGS_VERSION_STRING, n > 0);
	return 0;
}
EOF
# shellcheck disable=SC2086
$cc -std=c99 $warn $cflags "$top/use.c" -o "$top/use"
# shellcheck disable=SC2086
$cc -std=c99 $cflags -M "$top/use.c" | tr -s ' \\' '\n' | grep -qx "$root/usr/include/pmregs/pmregs.h" ||
	{ echo "the program did not include the root's <pmregs/pmregs.h>"; exit 1; }
got=$("$top/use")
[ "$got" = "$version 1" ] || { echo "the program printed '$got', not '$version 1'"; exit 1; }
echo "a program built with those flags alone, from the root's headers, prints: $got"
test "$("$root/usr/bin/pmregs-decode" --version)" = "pmregs-decode $version"
"$root/usr/bin/pmregs-decode" netburst cccr 0x0003D000 | grep -q escr_select
echo "the unpacked pmregs-decode runs"
if command -v man >/dev/null 2>&1; then
	for f in $man_pages; do
		MANPATH="$root/usr/share/man" man "$f" 2>/dev/null | grep -q "$f" ||
			{ echo "man $f (MANPATH=$root/usr/share/man) does not show its page"; exit 1; }
	done
	echo "man finds pages in the root (MANPATH), .so pages included"
fi

echo "== the checkout is untouched"
w=$(find . \( -path ./build -o -path ./.git -o -name __pycache__ -o -path "./${out#"$(pwd)"/}" \) -prune \
	-o -newer "$top/started" -print)
if [ -n "$w" ]; then
	echo "written in the checkout:"
	echo "$w"
	exit 1
fi
echo "nothing written outside $out"
