#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Run the generator on one bad spec and check it fails as the spec's first line says.

The first line of every file in tests/specs/bad/ reads
    # expect: PMRnnn line N
The generator must exit with status 1, print that code at that line first,
print no traceback, and write no file.
"""

import os
import re
import subprocess
import sys
import tempfile

spec = sys.argv[1]
with open(spec, encoding="utf-8") as f:
    m = re.match(r"#\s*expect:\s*(PMR\d{3})\s+line\s+(\d+)", f.readline())
if not m:
    sys.exit(f"{spec}: first line must be '# expect: PMRnnn line N'")
code, line = m.group(1), int(m.group(2))
gen = os.path.join(os.path.dirname(__file__), "..", "..", "gen", "generate.py")
with tempfile.TemporaryDirectory() as out:
    p = subprocess.run([sys.executable, gen, "--out", out, spec], capture_output=True, text=True)
    written = os.listdir(out)
first = p.stderr.splitlines()[0] if p.stderr else ""
print(p.stderr, end="")
want = re.compile(rf"^{re.escape(os.path.relpath(spec))}:{line}:\d+: error\[{code}\]: \S")
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
