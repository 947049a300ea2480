#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# make decides by content whether to regenerate, never by file times. In a copy of the checkout whose
# specs and generator are newer than every generated file (the worst a clone's file times can be), with
# a stand-in Python that records being run:
#   1. `make headers` runs no generator, with the stand-in and with no Python at all;
#   2. an edited spec, template or VERSION does run it (and without Python is an error naming the file).
#
#   sh tests/gen/no_regen.sh OUTDIR
set -eu
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$1"
d=$(cd "$1" && pwd)/tree
rm -rf "$d"
mkdir -p "$d"
cp -R Makefile VERSION spec gen include doc "$d/"
find "$d/gen" -name __pycache__ -prune -exec rm -rf {} +
touch -d '2001-01-01 00:00' $(find "$d/include" "$d/doc" -type f)
touch -d '2030-01-01 00:00' $(find "$d/spec" "$d/gen" "$d/VERSION" -type f)
cat >"$d/python" <<EOF
#!/bin/sh
echo "\$*" >>"$d/ran"
exit 1
EOF
chmod +x "$d/python"

# make_headers PYTHON: make headers in the copy, its output in $d/make.log
make_headers() {
	rm -f "$d/ran"
	make -C "$d" --no-print-directory BUILD="$d/build" PYTHON="$1" headers >"$d/make.log" 2>&1
}

echo "== 1. nothing changed: no generator runs, whatever the file times"
make_headers "$d/python" || { cat "$d/make.log"; exit 1; }
if [ -f "$d/ran" ]; then
	echo "make ran the generator although nothing changed:"
	cat "$d/ran" "$d/make.log"
	exit 1
fi
make_headers "" || {
	echo "without Python, make refused an up-to-date checkout:"
	cat "$d/make.log"
	exit 1
}

# changed FILE WHAT: after FILE changed, make must run the generator (and fail without Python)
changed() {
	if make_headers "$d/python" || [ ! -f "$d/ran" ]; then
		echo "make did not regenerate after $2:"
		cat "$d/make.log"
		exit 1
	fi
	if make_headers ""; then
		echo "without Python, make accepted $2:"
		cat "$d/make.log"
		exit 1
	fi
	grep -q "$1" "$d/make.log" || {
		echo "the error does not name $1:"
		cat "$d/make.log"
		exit 1
	}
	echo "   $2: regenerates ($(head -n 1 "$d/make.log"))"
}

echo "== 2. an edited spec, template or VERSION regenerates"
spec=$(cd "$d" && ls spec/*.yaml | head -n 1)
cp "$d/$spec" "$d/spec.orig"
echo "# a comment" >>"$d/$spec"
changed "$spec" "a comment added to $spec"
cp "$d/spec.orig" "$d/$spec"
make_headers "$d/python" && [ ! -f "$d/ran" ] || {
	echo "the spec restored, make still regenerates:"
	cat "$d/make.log"
	exit 1
}
echo "{# a comment #}" >>"$d/gen/templates/version.h.j2"
changed "generator" "a comment added to gen/templates/version.h.j2"
cp gen/templates/version.h.j2 "$d/gen/templates/version.h.j2"
echo "9.9.9" >"$d/VERSION"
changed "VERSION" "VERSION changed"
echo "make decides by content: PASS"
