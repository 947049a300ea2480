#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# make install / make uninstall as a packager and a user would run them:
#   1. into a DESTDIR whose path contains a space; uninstall removes every file it wrote;
#   2. again to a second prefix (with a space, no DESTDIR; MAN3_ALIASES=no): the files of the first
#      install but its man3 aliases; pmregs.pc and the CMake files must name the second prefix, not
#      the first; the examples find every header they include with nothing but `pkg-config --cflags
#      pmregs` (one is built and run), the installed headers are those of the checkout; the installed
#      tool runs; uninstall leaves no file;
#   3. nothing is written in the checkout outside the build folder.
# The first install also holds a manual page for every public function (every static inline or
# PMREGS_HOT or PMREGS_NOINLINE function and function-like macro named pmregs_... in the headers, but for internal helpers
# named pmregs_x__y), which `man` finds through MANPATH, and the reference pages and examples under share/doc/pmregs.
#
#   sh tests/install.sh OUTDIR [BUILT]  (OUTDIR itself must not contain a space: it holds make's BUILD)
#
# BUILT: a BUILD folder where make built pmregs-decode already (the suite builds it once for this
# check and the CMake one): make starts from a copy of it, and finds the tool up to date.
set -eu
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
version=$(cat VERSION)
build=$out/build
dest="$out/dest dir"
second="$out/second prefix"
rm -rf "$build" "$dest" "$second"
mkdir -p "$build"
[ -z "${2:-}" ] || cp -a "$2/." "$build/"
touch "$build/started"
# the files a make run wrote in the checkout, outside the build folders
written_in_checkout() {
	find . \( -path ./build -o -path ./.git -o -name __pycache__ -o -path "./${out#"$(pwd)"/}" \) -prune \
		-o -newer "$build/started" -print
}
files_under() { (cd "$1" && find . -type f | sort); }

echo "== 1. DESTDIR with a space: '$dest'"
make -s BUILD="$build" install DESTDIR="$dest" PREFIX=/usr/local
files_under "$dest/usr/local" >"$build/installed.txt"
sed 's/^/    /' "$build/installed.txt"
test -f "$dest/usr/local/include/pmregs/pmregs.h"
test -f "$dest/usr/local/include/pmregs/version.h"
test -x "$dest/usr/local/bin/pmregs-decode"
test -f "$dest/usr/local/share/man/man1/pmregs-decode.1"
test -f "$dest/usr/local/share/man/man7/pmregs.7"
grep -qx 'prefix=/usr/local' "$dest/usr/local/lib/pkgconfig/pmregs.pc"
"$dest/usr/local/bin/pmregs-decode" netburst cccr 0x0003D000 | grep -q "escr_select"
test -f "$dest/usr/local/share/doc/pmregs/etrace.md"
test -f "$dest/usr/local/share/doc/pmregs/index.md"
test -f "$dest/usr/local/share/doc/pmregs/descriptors.md"
test -f "$dest/usr/local/share/doc/pmregs/x86/perfevtsel.svg"
test -f "$dest/usr/local/share/doc/pmregs/examples/etrace_synth.c"
man3="$dest/usr/local/share/man/man3"
missing=0
for f in $(sed -n -E 's/^(static inline|PMREGS_HOT|PMREGS_NOINLINE)[^(;{}]*[ *](pmregs_[a-z0-9_]+)\(.*/\2/p; s/^#define (pmregs_[a-z0-9_]+)\(.*/\1/p' \
	include/pmregs/*.h | grep -v __ | sort -u); do
	[ -f "$man3/$f.3" ] || { echo "no manual page for $f"; missing=$((missing + 1)); }
done
[ "$missing" = 0 ] || exit 1
echo "every public function has a manual page ($(ls "$man3" | wc -l) in man3)"
if command -v man >/dev/null 2>&1; then
	for f in pmregs_etrace_smi_stream_next pmregs_x86_perfevtsel_umask_set pmregs_strerror; do
		MANPATH="$dest/usr/local/share/man" man "$f" 2>&1 | grep -q "$f" || {
			echo "man $f (MANPATH=$dest/usr/local/share/man) does not show its page"
			exit 1
		}
	done
	echo "man finds them (MANPATH)"
fi
test "$("$dest/usr/local/bin/pmregs-decode" --version)" = "pmregs-decode $version"

echo "== 2. a second prefix, with a space, no DESTDIR: '$second'"
# MAN3_ALIASES=no: the some 4,500 man3 pages that only source another (man/aliases.sh) are written by
# the first install, to a path with a space too, and checked there; each is a file to create and
# delete, the most of this check's time. The second install must write every other file of the first.
make -s BUILD="$build" install PREFIX="$second" MAN3_ALIASES=no
files_under "$second" | LC_ALL=C sort >"$build/installed2.txt"
sh man/aliases.sh | sed 's|^\([^ ]*\) .*|./share/man/man3/\1.3|' | LC_ALL=C sort >"$build/aliases.txt"
LC_ALL=C sort "$build/installed.txt" >"$build/installed1.txt"
if LC_ALL=C comm -13 "$build/installed1.txt" "$build/aliases.txt" | grep .; then
	echo "the first install did not write the man3 aliases above"
	exit 1
fi
LC_ALL=C comm -23 "$build/installed1.txt" "$build/aliases.txt" >"$build/installed1.txt.new"
mv "$build/installed1.txt.new" "$build/installed1.txt"
cmp "$build/installed1.txt" "$build/installed2.txt" || {
	echo "the second install (MAN3_ALIASES=no) wrote other files than the first, its man3 aliases left out"
	exit 1
}
pc=$second/lib/pkgconfig/pmregs.pc
grep -Fqx "prefix=$(echo "$second" | sed 's/ /\\ /g')" "$pc" || {
	echo "$pc does not name the second prefix:"
	cat "$pc"
	exit 1
}
# (a "! grep" would not stop the script: set -e ignores a negated command)
if grep '@[a-z_]*@' "$pc" "$second"/share/cmake/pmregs/*.cmake; then
	echo "placeholders left unsubstituted in the installed pmregs.pc or CMake files"
	exit 1
fi
export PKG_CONFIG_PATH="$second/lib/pkgconfig"
test "$(pkg-config --modversion pmregs)" = "$version"
cflags=$(pkg-config --cflags pmregs)
echo "pkg-config --cflags pmregs: $cflags"
# every example finds the headers it includes in the installed ones: the preprocessor reads them all
# (-E; -H names each header it read) and every pmregs header it read is the installed one. Installed
# headers identical to the checkout's (compared below), the examples compile from them as the C checks
# build, link and run them from the checkout's; one is built and run from them here.
# (pkg-config escapes the space with a backslash, for the shell to read: eval)
read_headers=$(eval "cc -std=c99 -Wall -Werror $cflags -E -H examples/*.c" 2>&1 >/dev/null) || {
	echo "$read_headers"
	exit 1
}
printf '%s\n' "$read_headers" | sed -n 's/^\.* //p' | LC_ALL=C sort -u >"$build/read_headers.txt"
n_installed=$(grep -cF "$second/include/pmregs/" "$build/read_headers.txt") || {
	echo "the examples read no installed pmregs header"
	exit 1
}
if grep '/pmregs/' "$build/read_headers.txt" | grep -vF "$second/include/pmregs/"; then
	echo "the examples read the pmregs headers above, not the installed ones"
	exit 1
fi
echo "the examples read $n_installed installed headers"
eval "cc -std=c99 -Wall -Werror $cflags examples/x86_perfevtsel.c -o \"\$out/example\" -lm"
"$out/example" >/dev/null
for h in include/pmregs/*.h; do
	cmp "$h" "$second/include/pmregs/${h##*/}"
done
"$second/bin/pmregs-decode" --version
# both uninstalls last: on a file system that does not reuse an inode soon after it was freed (ext4
# without a journal), each file created soon after thousands were deleted costs a search past them all
make -s BUILD="$build" uninstall DESTDIR="$dest" PREFIX=/usr/local
left=$(files_under "$dest")
if [ -n "$left" ]; then
	echo "make uninstall left files behind:"
	echo "$left"
	exit 1
fi
test ! -e "$dest/usr/local/include/pmregs"
test ! -e "$dest/usr/local/share/cmake/pmregs"
make -s BUILD="$build" uninstall PREFIX="$second"
left=$(files_under "$second")
if [ -n "$left" ]; then
	echo "make uninstall left files behind:"
	echo "$left"
	exit 1
fi

echo "== 3. the checkout is untouched outside the build folders"
w=$(written_in_checkout)
if [ -n "$w" ]; then
	echo "written in the checkout:"
	echo "$w"
	exit 1
fi
echo "install and uninstall: ok"
