# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""pmregs generator: YAML register specs -> static inline C headers."""

import hashlib
import os
import re


def _read_version():
    """The release, from the one version source: the VERSION file at the top of the tree."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "VERSION")
    with open(path, encoding="ascii") as f:
        text = f.read().strip()
    if not re.fullmatch(r"\d+\.\d+\.\d+", text):
        raise SystemExit(f"VERSION: '{text}' is not MAJOR.MINOR.PATCH")
    return text


VERSION = _read_version()


def generator_sha256():
    """What the generated files record of the generator that wrote them: the SHA-256 of the lines
    "SHA256  PATH" (what sha256sum prints) of every gen/**/*.py and *.j2 file, sorted by path. Make
    compares it with the sources (gen/uptodate.sh) to decide by content, never by file times, whether
    the committed files need regenerating."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = []
    for d, dirs, files in os.walk(os.path.join(top, "gen")):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        paths += [os.path.relpath(os.path.join(d, f), top).replace(os.sep, "/") for f in files
                  if f.endswith((".py", ".j2"))]
    lines = []
    for rel in sorted(paths, key=lambda p: p.encode()):
        with open(os.path.join(top, rel), "rb") as f:
            lines.append(f"{hashlib.sha256(f.read()).hexdigest()}  {rel}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


GENERATOR_SHA256 = generator_sha256()
