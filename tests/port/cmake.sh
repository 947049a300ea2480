#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# `make install` into a scratch DESTDIR, then configure and build a tiny CMake
# project that uses nothing but find_package(pmregs) and pmregs::pmregs, as a
# user of the installed package would; run it; check the version file refuses
# versions it does not provide; uninstall and check the files are gone.
#
#   sh tests/port/cmake.sh OUTDIR [BUILT]
#
# BUILT: a BUILD folder where make built pmregs-decode already; make starts from a copy of it.
set -eu
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$1"
out=$(cd "$1" && pwd)
dest=$out/root
rm -rf "$dest" "$out/proj" "$out/build" "$out/make"
[ -z "${2:-}" ] || { mkdir -p "$out/make" && cp -a "$2/." "$out/make/"; }
# MAN3_ALIASES=no: the some 4,500 man3 pages that only source another are not written (this check
# looks at the CMake package; tests/install.sh checks the manual pages)
make -s BUILD="$out/make" install DESTDIR="$dest" PREFIX=/usr/local MAN3_ALIASES=no
cfgdir=$dest/usr/local/share/cmake/pmregs
test -f "$cfgdir/pmregsConfig.cmake"
test -f "$cfgdir/pmregsConfigVersion.cmake"
version=$(cat VERSION)
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
echo "package version $version"

mkdir -p "$out/proj"
cat >"$out/proj/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(pmregs_consumer C)
find_package(pmregs $major.$minor REQUIRED)
if(NOT TARGET pmregs::pmregs)
  message(FATAL_ERROR "find_package(pmregs) did not define pmregs::pmregs")
endif()
get_target_property(_type pmregs::pmregs TYPE)
if(NOT _type STREQUAL "INTERFACE_LIBRARY")
  message(FATAL_ERROR "pmregs::pmregs is \${_type}, not an INTERFACE library")
endif()
message(STATUS "pmregs \${pmregs_VERSION} headers in \${pmregs_INCLUDE_DIRS}")
add_executable(consumer main.c)
set_property(TARGET consumer PROPERTY C_STANDARD 99)
set_property(TARGET consumer PROPERTY C_STANDARD_REQUIRED ON)
target_compile_options(consumer PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror)
target_link_libraries(consumer PRIVATE pmregs::pmregs)
EOF
# IA32_PERFEVTSEL bits from Intel SDM Vol. 3B Figure 18-1: USR 16, OS 17, EN 22;
# UnHalted Core Cycles is event 3CH (Table 18-1).
cat >"$out/proj/main.c" <<'EOF'
#include <stdio.h>
#include <pmregs/tools.h> /* pmregs.h and every family's printers */

int main(void)
{
	uint64_t v = PMREGS_X86_PERFEVTSEL_EVENT_SELECT(0x3c) | PMREGS_X86_PERFEVTSEL_USR(1) |
		     PMREGS_X86_PERFEVTSEL_OS(1) | PMREGS_X86_PERFEVTSEL_EN(1);
	char buf[512];
	pmregs_x86_perfevtsel_snprint(buf, sizeof(buf), v);
	printf("%s\n", buf);
	return v == 0x43003cu && pmregs_x86_perfevtsel_event_select_get(v) == 0x3c ? 0 : 1;
}
EOF

# the package must be found from the staged prefix, never from the checkout
cmake -S "$out/proj" -B "$out/build" -DCMAKE_PREFIX_PATH="$dest/usr/local" -DCMAKE_BUILD_TYPE=Release
grep -q "$dest/usr/local/include" "$out/build/CMakeCache.txt" ||
	grep -rq -- "$dest/usr/local/include" "$out/build/CMakeFiles"
cmake --build "$out/build"
"$out/build/consumer"
# (a "! grep" would not stop the script: set -e ignores a negated command)
if grep -r -- "$(pwd)/include" "$out/build/CMakeFiles/consumer.dir/flags.make"; then
	echo "the consumer was built with the checkout's headers, not the installed ones"
	exit 1
fi

# a version this package does not provide must be refused
sed -i "s/find_package(pmregs $major.$minor REQUIRED)/find_package(pmregs $((major + 1)).0 REQUIRED)/" "$out/proj/CMakeLists.txt"
rm -rf "$out/build"
if cmake -S "$out/proj" -B "$out/build" -DCMAKE_PREFIX_PATH="$dest/usr/local" >"$out/refused.log" 2>&1; then
	echo "find_package(pmregs $((major + 1)).0) was accepted by version $version"
	exit 1
fi
grep -q "version: $version" "$out/refused.log"
echo "find_package(pmregs $((major + 1)).0) refused, as it should be"

make -s BUILD="$out/make" uninstall DESTDIR="$dest" PREFIX=/usr/local
test ! -e "$cfgdir/pmregsConfig.cmake"
test ! -e "$cfgdir/pmregsConfigVersion.cmake"
echo "CMake package: ok"
