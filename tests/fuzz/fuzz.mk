# libFuzzer targets (included by the Makefile).  tests/fuzz/fuzz_NAME.c
# defines LLVMFuzzerTestOneInput; seeds live in tests/fuzz/corpus/NAME/.
# The library is compiled once (objects instrumented with
# -fsanitize=fuzzer-no-link, in one archive) and every target links it:
# compiling the whole library again per target took half of CI's time.
FUZZ_CC ?= clang
FUZZ_BUILD := build-fuzz
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_SAN := address,undefined
FUZZ_CFLAGS := -g -O1 -std=gnu11 -D_GNU_SOURCE -pthread -I.
FUZZ_OBJ := $(SRC_LIB:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_STAMP := $(FUZZ_BUILD)/.flags

$(FUZZ_STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(subst ','\'',$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) $(PKG_CFLAGS))' > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(FUZZ_BUILD)/obj/%.o: %.c $(FUZZ_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) \
	  -MMD -MP $(PKG_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/libptop.a: $(FUZZ_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_BUILD)/libptop.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) $(PKG_CFLAGS) \
	  -o $@ $< $(FUZZ_BUILD)/libptop.a $(LIBS)

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

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
