#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Compile budgets of every header and the regeneration time (see budget.py).
exec "${PYTHON:-python3}" "$(dirname "$0")/budget.py" "$1"
