# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The C in the reference pages (doc/*.md), sourced by tests/run.sh (it uses check, skip, $B, $WARN, $PYTHON):
# every example program compiles and links, every documented signature matches its header,
# and a page with a broken example is refused (the check can fail).
if [ -n "$PYTHON" ]; then
	check "doc pages: C examples and signatures compile (gcc -std=c99)" \
		"$PYTHON" tests/doc/examples.py "$B/doc_examples" "gcc -std=c99 $WARN -Iinclude" doc/*.md
	check "doc pages: a broken example fails the example check" \
		sh -c '! "$1" tests/doc/examples.py "$2" "gcc -std=c99 $3 -Iinclude" tests/doc/broken.md' _ "$PYTHON" "$B/doc_broken" "$WARN"
else
	skip "doc page examples" "no python3 (Debian: apt-get install python3)"
fi
