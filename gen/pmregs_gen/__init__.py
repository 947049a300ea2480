# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""pmregs generator: YAML register specs -> static inline C headers."""

VERSION = "0.1.0"
