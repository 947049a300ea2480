# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""pmregs generator: YAML register specs -> static inline C headers."""

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
