# SPDX-License-Identifier: MIT OR GPL-2.0-only
# pmregs: header-only performance-monitoring register definitions.
#
#   make            regenerate include/pmregs/*.h and doc/ when a spec or the generator changed,
#                   and build the pmregs-decode tool (build/examples/pmregs-decode)
#   make demo       build and run the examples (pmregs-decode without arguments lists the families)
#   make doc        regenerate the reference pages doc/*.md and their diagrams doc/*/*.svg
#   make check      run every test in parallel (JOBS, default: all CPUs; T=pattern for a subset);
#                   the last line is "N passed, N failed"
#   make bench      zero-overhead and compile-cost measurements (ratios, never asserts)
#   make fuzz       libFuzzer + ASan/UBSan on every tests/fuzz/fuzz_*.c (FUZZTIME seconds each, on
#                   FUZZJOBS cores; the default runs about 100 M inputs in all, see below)
#   make install    headers + pkg-config file + CMake package files + pmregs-decode + man pages (man1, man3
#                   for every public function, man7) + the reference pages and examples under docdir
#                   (PREFIX, DESTDIR, includedir, pkgconfigdir, cmakedir, bindir, mandir, docdir; paths may
#                   contain spaces; nothing is written in the checkout outside $(BUILD)); MAN3_ALIASES=no
#                   leaves out the man3 pages that only source another (man/aliases.sh lists them)
#   make uninstall  remove exactly the files make install writes (same variables)

PREFIX       ?= /usr/local
prefix       ?= $(PREFIX)
includedir   ?= $(prefix)/include
libdir       ?= $(prefix)/lib
pkgconfigdir ?= $(libdir)/pkgconfig
datarootdir  ?= $(prefix)/share
cmakedir     ?= $(datarootdir)/cmake/pmregs
bindir       ?= $(prefix)/bin
mandir       ?= $(datarootdir)/man
docdir       ?= $(datarootdir)/doc/pmregs
DESTDIR      ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror
BUILD   ?= build

# A Python that has PyYAML and Jinja2: PYTHON if it is set (empty: none), else python3, then the system
# one. Only the recipes that run it look for it, as their first shell line sets $$py: a make run on
# current generated files (make, make install, make uninstall) starts no Python.
FIND_PYTHON = py='$(PYTHON)'; [ -n "$$py" ] || [ '$(origin PYTHON)' != undefined ] || \
	for p in python3 /usr/bin/python3; do $$p -c 'import yaml, jinja2' >/dev/null 2>&1 && { py=$$p; break; }; done

SPECS    := $(sort $(wildcard spec/*.yaml))
HEADERS  := $(patsubst spec/%.yaml,include/pmregs/%.h,$(SPECS)) $(patsubst spec/%.yaml,include/pmregs/%_tools.h,$(SPECS)) \
            include/pmregs/pmregs.h include/pmregs/tools.h include/pmregs/version.h
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
TOOL     := $(BUILD)/examples/pmregs-decode

# Event catalogues: the rows of catalogue C of family F are spec/F/C/*.yaml, its header include/pmregs/F_C.h.
# They are regenerated only when their data, their family's spec or the generator change: reading some
# 20000 events takes a few seconds, which the family headers do not wait for.
CAT_DIRS    := $(sort $(patsubst %/,%,$(dir $(wildcard spec/*/*/*.yaml))))
CAT_DATA    := $(wildcard spec/*/*/*.yaml)
CAT_SPECS   := $(sort $(foreach d,$(CAT_DIRS),spec/$(word 2,$(subst /, ,$(d))).yaml))
CAT_HEADERS := $(foreach d,$(CAT_DIRS),include/pmregs/$(word 2,$(subst /, ,$(d)))_$(word 3,$(subst /, ,$(d))).h) \
               $(if $(CAT_DIRS),include/pmregs/catalogs.h)

# The one version source: headers (PMREGS_VERSION_*), pmregs.pc, the CMake package, pmregs-decode --version.
VERSION := $(shell cat VERSION)

.PHONY: all headers demo doc check check-generated install uninstall bench fuzz clean

all: headers $(TOOL)

headers: $(HEADERS) $(CAT_HEADERS)

# The headers and the reference pages are regenerated together, when their content says so: each
# records the SHA-256 of its spec, and version.h and doc/README.md those of VERSION and of the
# generator's sources (gen/uptodate.sh compares them). File times play no part, so a fresh clone,
# whose times are those of the checkout, never runs the generator, with or without Python; a spec,
# VERSION or generator edited since needs Python with PyYAML and Jinja2.
$(HEADERS) &: FORCE
	@why=$$(sh gen/uptodate.sh) && exit 0; \
	$(FIND_PYTHON); \
	if [ -z "$$py" ]; then \
		echo "error: $$why; regenerating needs Python with PyYAML"; \
		echo "       and Jinja2 (Debian: apt-get install python3-yaml python3-jinja2), then run make"; \
		exit 1; fi; \
	echo "regenerating: $$why"; \
	echo "$$py gen/generate.py --out include/pmregs $(SPECS)"; \
	$$py gen/generate.py --out include/pmregs $(SPECS) && \
	echo "$$py gen/generate.py --doc --out doc $(SPECS)" && \
	$$py gen/generate.py --doc --out doc $(SPECS)

$(CAT_HEADERS) &: FORCE
	@why=$$(sh gen/uptodate.sh catalogs) && exit 0; \
	$(FIND_PYTHON); \
	if [ -z "$$py" ]; then \
		echo "error: $$why; regenerating needs Python with PyYAML"; \
		echo "       and Jinja2 (Debian: apt-get install python3-yaml python3-jinja2), then run make"; \
		exit 1; fi; \
	echo "regenerating: $$why"; \
	echo "$$py gen/generate.py --catalogs --out include/pmregs $(CAT_SPECS)"; \
	$$py gen/generate.py --catalogs --out include/pmregs $(CAT_SPECS)

check-generated:
	@$(FIND_PYTHON); \
	test -n "$$py" || { echo "check-generated needs python3 with yaml and jinja2"; exit 1; }; \
	echo "$$py gen/generate.py --check --out include/pmregs $(SPECS)" && \
	$$py gen/generate.py --check --out include/pmregs $(SPECS) && \
	echo "$$py gen/generate.py --doc --check --out doc $(SPECS)" && \
	$$py gen/generate.py --doc --check --out doc $(SPECS) && \
	echo "$$py gen/generate.py --catalogs --check --out include/pmregs $(CAT_SPECS)" && \
	$$py gen/generate.py --catalogs --check --out include/pmregs $(CAT_SPECS)

# The reference pages: one Markdown page per family, a bit diagram per layout, committed like the headers.
doc:
	@$(FIND_PYTHON); \
	test -n "$$py" || { echo "make doc needs python3 with yaml and jinja2 (Debian: python3-yaml python3-jinja2)"; exit 1; }; \
	echo "$$py gen/generate.py --doc --out doc $(SPECS)" && \
	$$py gen/generate.py --doc --out doc $(SPECS)

$(BUILD)/examples/%: examples/%.c $(HEADERS) $(CAT_HEADERS) $(wildcard include/pmregs/base*.h include/pmregs/etrace_*coder.h) $(wildcard examples/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(WARN) $(CFLAGS) -Iinclude $< -o $@

demo: headers $(EXAMPLES)
	@for e in $(EXAMPLES); do echo "== $$e"; $$e || exit 1; echo; done

# Whether the committed generated files were current is decided before make regenerates them: the
# suite fails on it (PMREGS_STALE), so a commit whose generated files are stale fails CI.
check:
	@stale=$$(sh gen/uptodate.sh; sh gen/uptodate.sh catalogs); $(MAKE) --no-print-directory headers && { \
	$(FIND_PYTHON); PMREGS_STALE="$$stale" PYTHON="$$py" CC="$(CC)" T='$(T)' JOBS='$(JOBS)' sh tests/run.sh; }

bench: headers
	@$(FIND_PYTHON); PYTHON="$$py" sh tests/bench/run.sh

# FUZZTIME seconds per target, each on FUZZJOBS cores (libFuzzer -fork). Measured with 150 s per
# target on 2 cores (inputs run): etrace_data 52.6 M, netburst 30.5 M, itanium_cover 15.0 M,
# ppc604_pm 6.0 M, etrace 4.4 M, snprint 3.4 M, decode_cli 1.8 M -- 113.7 M across the seven
# targets in about 19 minutes. A short run: make fuzz FUZZTIME=30.
FUZZTIME ?= 150
FUZZJOBS ?= 2
fuzz: headers
	@mkdir -p $(BUILD)/fuzz
	@for src in tests/fuzz/fuzz_*.c; do n=$$(basename $$src .c); name=$${n#fuzz_}; \
		echo "== $$n ($(FUZZTIME) s on $(FUZZJOBS) cores)"; mkdir -p $(BUILD)/fuzz/$$name.new; \
		clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
			-Iinclude $$src -o $(BUILD)/fuzz/$$n && \
		$(BUILD)/fuzz/$$n -fork=$(FUZZJOBS) -max_total_time=$(FUZZTIME) -max_len=256 \
			-artifact_prefix=$(BUILD)/fuzz/$$name- $(BUILD)/fuzz/$$name.new \
			tests/fuzz/corpus/$$name || exit 1; done

# ---- install ------------------------------------------------------------------------
# Paths may contain spaces: recipes quote them, and pmregs.pc escapes them as pkg-config expects.
# Everything generated for an install lives in $(BUILD) and depends on $(BUILD)/install.vars, which
# changes (and only then) when an install variable that ends up in a file changes.

INSTALL_VARS := version=$(VERSION) prefix=$(prefix) includedir=$(includedir) cmakedir=$(cmakedir)
empty :=
space := $(empty) $(empty)
pc_escape = $(subst $(space),\\ ,$(1))

.PHONY: FORCE
FORCE:
$(BUILD)/install.vars: FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(INSTALL_VARS)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi

$(BUILD)/pmregs.pc: pkgconfig/pmregs.pc.in $(BUILD)/install.vars
	sed -e 's|@prefix@|$(call pc_escape,$(prefix))|g' -e 's|@includedir@|$(call pc_escape,$(includedir))|g' \
	    -e 's|@version@|$(VERSION)|g' $< >$@.tmp && mv -f $@.tmp $@

# pmregsConfig.cmake finds the headers relative to itself, so the installed tree is relocatable.
$(BUILD)/cmake/%.cmake: cmake/%.cmake.in $(BUILD)/install.vars
	@mkdir -p $(dir $@)
	rel=$$(realpath -m --relative-to='$(cmakedir)' '$(includedir)') && \
	sed -e "s|@includedir_rel@|$$rel|g" -e 's|@version@|$(VERSION)|g' $< >$@.tmp && mv -f $@.tmp $@

# What make install writes, and so what make uninstall removes (relative to DESTDIR).
INST_HEADERS := $(sort $(notdir $(HEADERS) $(wildcard include/pmregs/*.h)))
CMAKE_FILES  := pmregsConfig.cmake pmregsConfigVersion.cmake
INSTALL_DEPS := headers $(TOOL) $(BUILD)/pmregs.pc $(addprefix $(BUILD)/cmake/,$(CMAKE_FILES))
DOC_PAGES    := $(notdir $(wildcard doc/*.md))
DOC_DIRS     := $(notdir $(patsubst %/,%,$(sort $(dir $(wildcard doc/*/*.svg)))))
MAN3_PAGES   := $(notdir $(wildcard doc/man3/*.3))
MAN3_ALIASES ?= yes
EXAMPLE_SRCS := $(notdir $(wildcard examples/*.c))

install: $(INSTALL_DEPS)
	install -d '$(DESTDIR)$(includedir)/pmregs' '$(DESTDIR)$(pkgconfigdir)' '$(DESTDIR)$(bindir)' \
	    '$(DESTDIR)$(cmakedir)' '$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7'
	install -m 755 $(TOOL) '$(DESTDIR)$(bindir)/pmregs-decode'
	install -m 644 $(addprefix include/pmregs/,$(INST_HEADERS)) '$(DESTDIR)$(includedir)/pmregs/'
	install -m 644 $(BUILD)/pmregs.pc '$(DESTDIR)$(pkgconfigdir)/pmregs.pc'
	install -m 644 $(addprefix $(BUILD)/cmake/,$(CMAKE_FILES)) '$(DESTDIR)$(cmakedir)/'
	install -m 644 man/pmregs-decode.1 '$(DESTDIR)$(mandir)/man1/pmregs-decode.1'
	install -m 644 man/pmregs.7 '$(DESTDIR)$(mandir)/man7/pmregs.7'
	@# man3: a page per function or per layout and record; each name a layout or record page lists is a
	@# page too, sourcing it (man/aliases.sh), unless MAN3_ALIASES=no (a packager who makes them links)
	install -d '$(DESTDIR)$(mandir)/man3'
	install -m 644 $(addprefix doc/man3/,$(MAN3_PAGES)) '$(DESTDIR)$(mandir)/man3/'
	if [ '$(MAN3_ALIASES)' != no ]; then sh man/aliases.sh | \
	    awk -v d='$(DESTDIR)$(mandir)/man3' '{ f = d "/" $$1 ".3"; print ".so man3/" $$2 ".3" >f; close(f) }'; fi
	@# the reference pages with their diagrams, and the examples
	install -d '$(DESTDIR)$(docdir)/examples' $(foreach d,$(DOC_DIRS),'$(DESTDIR)$(docdir)/$(d)')
	install -m 644 $(addprefix doc/,$(DOC_PAGES)) '$(DESTDIR)$(docdir)/'
	for d in $(DOC_DIRS); do install -m 644 doc/$$d/*.svg '$(DESTDIR)$(docdir)/'"$$d/" || exit 1; done
	install -m 644 $(addprefix examples/,$(EXAMPLE_SRCS)) '$(DESTDIR)$(docdir)/examples/'

uninstall:
	rm -f '$(DESTDIR)$(bindir)/pmregs-decode' '$(DESTDIR)$(pkgconfigdir)/pmregs.pc'
	rm -f '$(DESTDIR)$(mandir)/man1/pmregs-decode.1' '$(DESTDIR)$(mandir)/man7/pmregs.7'
	cd '$(DESTDIR)$(includedir)/pmregs' 2>/dev/null && rm -f $(INST_HEADERS) || true
	cd '$(DESTDIR)$(cmakedir)' 2>/dev/null && rm -f $(CMAKE_FILES) || true
	aliases=$$(sh man/aliases.sh | awk '{ print $$1 ".3" }') && \
	if cd '$(DESTDIR)$(mandir)/man3' 2>/dev/null; then rm -f $(MAN3_PAGES) $$aliases; fi
	if cd '$(DESTDIR)$(docdir)' 2>/dev/null; then rm -f $(DOC_PAGES) $(addprefix examples/,$(EXAMPLE_SRCS)) \
		$(foreach d,$(DOC_DIRS),$(d)/*.svg); fi
	rmdir '$(DESTDIR)$(includedir)/pmregs' '$(DESTDIR)$(cmakedir)' '$(DESTDIR)$(docdir)/examples' \
		$(foreach d,$(DOC_DIRS),'$(DESTDIR)$(docdir)/$(d)') '$(DESTDIR)$(docdir)' 2>/dev/null || true

clean:
	rm -rf $(BUILD)
