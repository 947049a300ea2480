#!/bin/sh
# Compile budgets of every header and the regeneration time (see budget.py).
exec "${PYTHON:-python3}" "$(dirname "$0")/budget.py" "$1"
