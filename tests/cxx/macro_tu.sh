#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Print a C++ translation unit that expands every builder and accessor macro of the header $1
# (PREFIX_LAYOUT_FIELD(x), ..._get(v), ..._set(v, x)), so that the compile matrix sees what those
# macros become in a C++ user's code, not only the header's own text.
set -eu
h=$1
printf '#include <pmregs/%s>\n' "$(basename "$h")"
printf 'template <typename T> inline void pmregs_use(T) {}\n'
printf 'void pmregs_expand_all();\nvoid pmregs_expand_all()\n{\n'
sed -n -E \
	-e 's/^#define (pmregs_[a-z0-9_]+_get)\(v\) .*/\tpmregs_use(\1(1u));/p' \
	-e 's/^#define (pmregs_[a-z0-9_]+_set)\(v, x\) .*/\tpmregs_use(\1(1u, 1u));/p' \
	-e 's/^#define (PMREGS_[A-Z0-9_]+)\(x\) .*/\tpmregs_use(\1(1));/p' "$h"
printf '}\n'
