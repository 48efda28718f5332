# libFuzzer targets (included by the Makefile).  tests/fuzz/fuzz_NAME.c
# defines LLVMFuzzerTestOneInput; seeds live in tests/fuzz/corpus/NAME/.
FUZZ_CC ?= clang
FUZZ_BUILD := build-fuzz
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_SRC := $(SRC_LIB)
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -std=gnu11 \
	-D_GNU_SOURCE -pthread -I. -Isrc -Isymbols -Iui

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(PKG_CFLAGS) -o $@ $< $(FUZZ_SRC) $(LIBS)

.PHONY: fuzz fuzz-smoke fuzz-build
fuzz-build: deps-test $(FUZZ_BINS)

# make fuzz: each target for FUZZ_SECONDS; crashes land in build-fuzz/.
fuzz: fuzz-build
	$(Q)for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
	  $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=$(FUZZ_BUILD)/crash-$$t- \
	    $(FUZZ_BUILD)/corpus-$$t tests/fuzz/corpus/$$t || exit 1; \
	done

# CI: a short run of each on its seeds.
fuzz-smoke:
	$(Q)$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(or $(SMOKE_SECONDS),20)
