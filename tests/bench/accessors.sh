#!/bin/sh
# Zero-overhead accessors (see accessor_cost.py).
exec "${PYTHON:-python3}" "$(dirname "$0")/accessor_cost.py" "$1"
