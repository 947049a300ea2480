#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Run the generator on one bad spec and check it fails as the spec's first line says.

The first line of every file in tests/specs/bad/ reads
    # expect: PMRnnn line N
The generator must exit with status 1, print that code at that line first,
print no traceback, and write no file. A first line ending in "padded to N bytes"
runs the generator on a copy of the spec with comment lines appended up to N
bytes (so that the size bound is tested without committing a huge file).
"as NAME.yaml" runs it on a copy called NAME.yaml (a family named like a
hand-written header, say, must still live in a file of its name), and
"with FILE.yaml" generates tests/specs/bad/companions/FILE.yaml together with it
(given first: names that clash across families).
"""

import os
import re
import subprocess
import sys
import tempfile

spec = sys.argv[1]
with open(spec, "rb") as f:          # bytes: a bad spec may be deliberately not UTF-8
    head = f.readline().decode("ascii", "replace")
m = re.match(r"#\s*expect:\s*(PMR\d{3})\s+line\s+(\d+)(?:.*padded to (\d+) bytes)?", head)
if not m:
    sys.exit(f"{spec}: first line must be '# expect: PMRnnn line N'")
code, line = m.group(1), int(m.group(2))
copy_as = re.search(r"\bas ([a-z0-9_]+\.yaml)\b", head)
companion = re.search(r"\bwith ([a-z0-9_]+\.yaml)\b", head)
gen = os.path.join(os.path.dirname(__file__), "..", "..", "gen", "generate.py")
with tempfile.TemporaryDirectory() as out:
    run, others = spec, []
    if m.group(3) or copy_as or companion:
        run = os.path.join(out, "in", copy_as.group(1) if copy_as else os.path.basename(spec))
        os.mkdir(os.path.dirname(run))
        with open(spec, "rb") as f, open(run, "wb") as g:
            g.write(f.read())
            if m.group(3):
                pad = b"#" + b"-" * 78 + b"\n"
                g.write(pad * (int(m.group(3)) // len(pad) + 1))
        if companion:
            others = [os.path.join(out, "in", companion.group(1))]
            with open(os.path.join(os.path.dirname(spec), "companions", companion.group(1)), "rb") as f, \
                    open(others[0], "wb") as g:
                g.write(f.read())
    p = subprocess.run([sys.executable, gen, "--out", out] + others + [run], capture_output=True, text=True)
    written = [f for f in os.listdir(out) if f != "in"]
    shown = os.path.relpath(run)
first = p.stderr.splitlines()[0] if p.stderr else ""
print(p.stderr, end="")
want = re.compile(rf"^{re.escape(shown)}:{line}:\d+: error\[{code}\]: \S")
problems = []
if p.returncode != 1:
    problems.append(f"exit status {p.returncode}, expected 1")
if not want.match(first):
    problems.append(f"first error line does not match {want.pattern!r}")
if "Traceback" in p.stderr:
    problems.append("the generator printed a traceback")
if written:
    problems.append(f"files were written: {written}")
for pr in problems:
    print(f"{spec}: {pr}")
sys.exit(1 if problems else 0)
