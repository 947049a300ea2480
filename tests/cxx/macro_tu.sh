#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
# Print a C++ translation unit that includes the headers $@ and expands every builder and accessor
# macro of each (PREFIX_LAYOUT_FIELD(x), ..._get(v), ..._set(v, x)) in a function named after the
# header, so that the compile matrix sees what those macros become in a C++ user's code, not only the
# headers' own text.
set -eu
for h in "$@"; do
	printf '#include <pmregs/%s>\n' "$(basename "$h")"
done
printf 'template <typename T> inline void pmregs_use(T) {}\n'
for h in "$@"; do
	f=pmregs_expand_$(basename "$h" .h)
	printf 'void %s();\nvoid %s()\n{\n' "$f" "$f"
	sed -n -E \
		-e 's/^#define (pmregs_[a-z0-9_]+_get)\(v\) .*/\tpmregs_use(\1(1u));/p' \
		-e 's/^#define (pmregs_[a-z0-9_]+_set)\(v, x\) .*/\tpmregs_use(\1(1u, 1u));/p' \
		-e 's/^#define (PMREGS_[A-Z0-9_]+)\(x\) .*/\tpmregs_use(\1(1));/p' "$h"
	printf '}\n'
done
