# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The Debian packages (debian/), sourced by tests/run.sh (it uses check, skip, have, $B, $CC, $WARN):
# dpkg-buildpackage in a copy of the checkout, the packages unpacked into a scratch root, a program
# built against it with pkg-config (tests/deb/build.sh says what it asserts).
if have dpkg-buildpackage && have dh && have pkg-config; then
	early=1 check "Debian packages: dpkg-buildpackage, dpkg -x into a scratch root, pkg-config build against it" \
		sh tests/deb/build.sh "$B/deb" "${CC:-cc}" "$WARN"
else
	skip "Debian packages" "dpkg-buildpackage or debhelper missing (Debian: apt-get install dpkg-dev debhelper pkg-config)"
fi
