#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Install into a scratch DESTDIR, then build an example using nothing but
# `pkg-config --cflags pmregs`, exactly as a user of the installed package would.
set -eu
dest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rm -rf "$dest"
make -s install DESTDIR="$dest" PREFIX=/usr/local
make -s uninstall DESTDIR="$dest" PREFIX=/usr/local
test ! -e "$dest/usr/local/include/pmregs/base.h"
test ! -e "$dest/usr/local/bin/pmregs-decode"
make -s install DESTDIR="$dest" PREFIX=/usr/local
test -f "$dest/usr/local/lib/pkgconfig/pmregs.pc"
# the tool is installed and runs from there
"$dest/usr/local/bin/pmregs-decode" netburst cccr 0x0003D000 | grep -q "escr_select"
export PKG_CONFIG_PATH="$dest/usr/local/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags pmregs)
echo "pkg-config --cflags pmregs: $cflags"
for ex in examples/*.c; do
	# shellcheck disable=SC2086
	cc -std=c99 -Wall -Werror $cflags "$ex" -o "$dest/example" -lm
	"$dest/example" >/dev/null
done
