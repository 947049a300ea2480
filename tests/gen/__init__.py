# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""The generator's unit tests (python3 -m unittest discover -s tests/gen -t .): one process for every module.

That process keeps what each module loaded alive to the end (the generator and its compiled templates,
parsed specs, class fixtures), and its tests allocate fast (specs of thousands of registers parsed and
rendered). With the cyclic collector's default thresholds (700, 10, 10) it walked those objects again and
again: about 2 s of the process's 14 s CPU. Here the youngest generation is collected every 2000
allocations and the oldest only after ten times as many collections of the middle one (about 0.8 s of
collecting; the process's peak memory is the same). No test depends on when unreachable cycles are freed."""

import gc

gc.set_threshold(2000, 10, 100)
