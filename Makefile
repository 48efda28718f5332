# ptop: build, run, test, bench, fuzz, install.
#
#   make            build ./ptop (says which package is missing, if one is)
#   make run        install missing build dependencies (apt-get), build, start ptop
#   make check      install missing dependencies, build, run every test
#   make bench      figures against the installed perf
#   make fuzz       run the libFuzzer targets for FUZZ_SECONDS each
#
# Switches: SANITIZE=1 (ASan+UBSan), TSAN=1 (ThreadSanitizer: the
# symbolizer's worker, the reader threads), WERROR=1, V=1.

PKG_CONFIG ?= pkg-config
CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 30

override CFLAGS += -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wcast-qual -Wwrite-strings -Wundef \
	-Wno-missing-field-initializers -D_GNU_SOURCE -pthread -MMD -MP \
	-I.

ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif

ifeq ($(SANITIZE),1)
BUILD ?= build-san
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
else ifeq ($(TSAN),1)
BUILD ?= build-tsan
override CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=thread
else
BUILD ?= build
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# package-config name : Debian package that provides it
DEPS_RUN := ncursesw:libncurses-dev libelf:libelf-dev libdw:libdw-dev \
	capstone:libcapstone-dev libzstd:libzstd-dev \
	libdebuginfod:libdebuginfod-dev liblzma:liblzma-dev \
	zlib:zlib1g-dev
DEPS_TEST := check:check

pc_names = $(foreach d,$(1),$(firstword $(subst :, ,$(d))))
missing = $(strip $(foreach d,$(1),$(if $(shell $(PKG_CONFIG) --exists \
	$(firstword $(subst :, ,$(d))) 2>/dev/null && echo y),,$(lastword \
	$(subst :, ,$(d))))))

PKGS := $(call pc_names,$(DEPS_RUN))
MISSING_RUN = $(call missing,$(DEPS_RUN))
MISSING_TEST = $(call missing,$(DEPS_TEST))

# Evaluated only when a target that needs them is built, so that
# `make deps` works on a machine that has none of them yet.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# capstone is loaded with dlopen on first use (symbols/cslib.c), and
# libdebuginfod when a server is configured (symbols/dbgfetch.c): headers only
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(filter-out capstone libdebuginfod,$(PKGS)) 2>/dev/null)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

# libstdc++ only for __cxa_demangle (see doc/design.md)
LIBS = $(PKG_LIBS) -liberty -lstdc++ -lm -lpthread -ldl

# The layers are folders (doc/design.md, "Layout"); every include names
# its folder, so the only -I is the top.  src/*.c (main, cli) is the
# program's entry; everything else is the library.
SRC_MAIN := $(sort $(wildcard src/*.c))
SRC_CORE := $(sort $(wildcard src/core/*.c))
SRC_SYS := $(sort $(wildcard src/sys/*.c))
SRC_PERFDATA := $(sort $(wildcard src/perfdata/*.c))
SRC_SYMBOLS := $(sort $(wildcard symbols/*.c))
SRC_REPORT := $(sort $(wildcard ui/report/*.c))
SRC_TUI := $(sort $(wildcard ui/tui/*.c))
SRC_LIB := $(SRC_CORE) $(SRC_SYS) $(SRC_PERFDATA) $(SRC_SYMBOLS) \
	$(SRC_REPORT) $(SRC_TUI)
OBJ_LIB := $(SRC_LIB:%.c=$(BUILD)/%.o)

SRC_TESTS := $(sort $(wildcard tests/check_*.c)) tests/main.c tests/testutil.c \
	tests/cgwork.c tests/evtest.c
OBJ_TESTS := $(SRC_TESTS:%.c=$(BUILD)/%.o)

WORKLOADS := $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,\
	$(sort $(wildcard tests/workloads/*.c)))

.PHONY: all run check check-unit check-scripts check-layering bench fuzz install clean keys-doc \
	deps deps-test depcheck depcheck-test fixtures workloads tags soak

all: depcheck $(BUILD)/ptop ptop

ptop: $(BUILD)/ptop
	$(Q)ln -sf $(BUILD)/ptop ptop

depcheck:
	@m="$(MISSING_RUN)"; if [ -n "$$m" ]; then \
	  echo "ptop: missing build dependencies: $$m" >&2; \
	  echo "ptop: install them with: apt-get install $$m (or run 'make run' as root)" >&2; \
	  exit 1; fi

depcheck-test: depcheck
	@m="$(MISSING_TEST)"; if [ -n "$$m" ]; then \
	  echo "ptop: missing test dependencies: $$m" >&2; \
	  echo "ptop: install them with: apt-get install $$m (or run 'make check' as root)" >&2; \
	  exit 1; fi

# apt-get installs only what is missing; see scripts/install-deps.sh
deps:
	$(Q)scripts/install-deps.sh run

deps-test:
	$(Q)scripts/install-deps.sh test

run: deps
	$(Q)$(MAKE) --no-print-directory all
	./ptop $(ARGS)

# The compiler and flags a build directory was built with: a change
# (`make check WERROR=1` after a plain `make`) rebuilds every object.  The
# stamp is rewritten only when its text changes.
FLAGS_STAMP := $(BUILD)/.flags
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(subst ','\'',$(CC) $(CFLAGS) $(LDFLAGS) $(PKG_CFLAGS) $(CHECK_CFLAGS))' > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) $(CHECK_CFLAGS) -I$(BUILD)/tests -c -o $@ $<

# tests/check_NAME.c defines NAME_suite(); the runner's list is generated.
SUITES := $(patsubst tests/check_%.c,%,$(sort $(wildcard tests/check_*.c)))
$(BUILD)/tests/suites.inc: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(foreach s,$(SUITES),'SUITE($(s))') > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(OBJ_TESTS): $(BUILD)/tests/suites.inc

.PHONY: FORCE
FORCE:

$(BUILD)/libptop.a: $(OBJ_LIB)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/ptop: $(SRC_MAIN:%.c=$(BUILD)/%.o) $(BUILD)/libptop.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/runner: $(OBJ_TESTS) $(BUILD)/libptop.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

# Workloads: known profiles for the integration and end-to-end tests.
# Built without the sanitizers and without inlining so that their hot
# functions stay where the tests expect them; loops aligned, so that the
# same loop runs at the same speed in every function (wl.h).
WL_CFLAGS := -O1 -g -fno-omit-frame-pointer -fno-inline -fno-optimize-sibling-calls -falign-loops=64 -pthread
include tests/workloads/workloads.mk

workloads: $(WORKLOADS) $(WORKLOADS_EXTRA)

# ELF fixtures for the symbolizer tests (see tests/fixtures/fixtures.mk)
include tests/fixtures/fixtures.mk

# make check: the unit suites, then the scripts (both run whatever the
# other's result), then one closing line for both from tests/summary.sh:
# "N passed, N failed" (", N skipped" when something was, named above it).
check: deps-test
	$(Q)rm -f $(BUILD)/summary.unit $(BUILD)/summary.scripts; \
	$(MAKE) --no-print-directory check-unit \
	  PTOP_SUMMARY=$(CURDIR)/$(BUILD)/summary.unit; \
	$(MAKE) --no-print-directory check-scripts \
	  PTOP_SUMMARY=$(CURDIR)/$(BUILD)/summary.scripts; \
	tests/summary.sh $(BUILD)/summary.unit $(BUILD)/summary.scripts

check-unit: depcheck-test $(BUILD)/ptop ptop $(BUILD)/tests/runner fixtures workloads
	$(Q)PTOP_FIXTURES=$(BUILD)/fixtures PTOP_SUMMARY=$(PTOP_SUMMARY) \
	  $(BUILD)/tests/runner

# The folders are the layers: what each may include and call
# (tests/layering.sh; also the first of check-scripts).
check-layering:
	$(Q)tests/layering.sh

check-scripts: depcheck-test $(BUILD)/ptop ptop workloads
	$(Q)PTOP=$(CURDIR)/$(BUILD)/ptop WL=$(CURDIR)/$(BUILD)/workloads \
	  BUILD=$(CURDIR)/$(BUILD) PTOP_SUMMARY=$(PTOP_SUMMARY) \
	  tests/run-scripts.sh

# The soak (not in check): SOAK_MINUTES (20) of the live view under
# process churn, RSS/fds/threads/CPU/lost each minute (tests/soak/soak.sh).
soak: depcheck-test $(BUILD)/ptop ptop workloads
	$(Q)PTOP=$(CURDIR)/$(BUILD)/ptop WL=$(CURDIR)/$(BUILD)/workloads \
	  SOAK_OUT=$(CURDIR)/$(BUILD)/soak.txt sh tests/soak/soak.sh

# doc/keys.md and the KEYS section of doc/ptop.1 come from the key table
# (the keys suite fails when they are stale).
$(BUILD)/gen_keys: tests/gen_keys.c $(BUILD)/libptop.a $(FLAGS_STAMP)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(BUILD)/libptop.a $(LIBS)

keys-doc: $(BUILD)/gen_keys
	$(BUILD)/gen_keys md > doc/keys.md
	$(BUILD)/gen_keys man doc/ptop.1

include tests/bench/bench.mk
include tests/fuzz/fuzz.mk

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/ptop $(DESTDIR)$(PREFIX)/bin/ptop
	install -m 644 doc/ptop.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptop.1

clean:
	rm -rf build build-san build-tsan build-fuzz ptop

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
