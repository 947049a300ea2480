# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The family of a spec, read once for the test modules that only read it.

family(path) gives what pmregs_gen.model.load_family(path) gives, remembered in the test process by the
spec's path and bytes: the test modules that render or inspect the committed specs' families (pages, names,
classifier, family generators) read and check each spec once between them instead of once each. Rendering headers or pages leaves a family as it was (test_docs checks it), and a test that
changes a family, or checks a fresh read, calls load_family() itself."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "gen"))

from pmregs_gen.model import load_family  # noqa: E402

_seen = {}


def family(path):
    """load_family(path), the same object again for the same path and spec bytes."""
    with open(path, "rb") as f:
        raw = f.read()
    key = os.path.abspath(path)
    if key not in _seen or _seen[key][0] != raw:
        _seen[key] = (raw, load_family(path))
    return _seen[key][1]
