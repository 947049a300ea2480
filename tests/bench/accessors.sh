#!/bin/sh
# Zero-overhead accessors and include cost (see accessor_cost.py).
exec "${PYTHON:-python3}" "$(dirname "$0")/accessor_cost.py" "$1"
