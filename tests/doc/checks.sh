# SPDX-License-Identifier: MIT OR GPL-2.0-only
# The C in the reference pages (doc/*.md), sourced by tests/run.sh (it uses check, skip, have, $B, $WARN, $PYTHON,
# $have_gen):
# every example program compiles and links, every documented signature matches its header,
# a page with a broken example is refused (the check can fail), and so is one whose example calls what
# only another example defines (tests/doc/borrowed.md); every public function has its own
# description; the man3 pages format without groff warnings.
if [ -n "$PYTHON" ]; then
	check "doc pages: C examples and signatures compile (gcc -std=c99)" \
		"$PYTHON" tests/doc/examples.py "$B/doc_examples" "gcc -std=c99 $WARN -Iinclude" doc/*.md
	check "doc pages: a broken example fails the example check" \
		sh -c '! "$1" tests/doc/examples.py "$2" "gcc -std=c99 $3 -Iinclude" tests/doc/broken.md' _ "$PYTHON" "$B/doc_broken" "$WARN"
	check "doc pages: an example that calls what only another one defines fails the example check" \
		sh -c '! "$1" tests/doc/examples.py "$2" "gcc -std=c99 $3 -Iinclude" tests/doc/borrowed.md >"$2.log" && cat "$2.log" && grep -q "borrowed_ex1.c" "$2.log"' _ "$PYTHON" "$B/doc_borrowed" "$WARN"
else
	skip "doc page examples" "no python3 (Debian: apt-get install python3)"
fi
if [ -n "$have_gen" ]; then
	check "doc: every public function has its own description (its comment, or its construct's sentence from the spec)" \
		"$PYTHON" tests/doc/fn_docs.py spec/*.yaml
else
	skip "doc: function descriptions" "no python3 with PyYAML and Jinja2 (Debian: apt-get install python3-yaml python3-jinja2)"
fi
if have groff; then
	# one groff over every page (a warning names its file and line)
	check "doc: the man3 pages format without warnings (groff -man -ww)" \
		sh -c 'w=$(find doc/man3 -name "*.3" | LC_ALL=C sort | xargs groff -man -ww -z 2>&1); [ -z "$w" ] || { echo "$w"; exit 1; }'
else
	skip "doc: man3 page formatting" "groff not installed (Debian: apt-get install groff-base)"
fi
