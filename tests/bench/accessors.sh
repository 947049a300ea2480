#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Zero-overhead accessors (see accessor_cost.py).
exec "${PYTHON:-python3}" "$(dirname "$0")/accessor_cost.py" "$1"
