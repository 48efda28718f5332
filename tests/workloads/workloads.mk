# Test workloads (included by the Makefile).  Each tests/workloads/NAME.c
# becomes $(BUILD)/workloads/NAME; the extras below need special steps.

$(BUILD)/workloads/%: tests/workloads/%.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  WL      $@")
	$(Q)$(CC) $(WL_CFLAGS) -o $@ $< -ldl

# the library that dlwork dlopen()s (the .c is not a program)
WORKLOADS := $(filter-out $(BUILD)/workloads/wlhot,$(WORKLOADS))
$(BUILD)/workloads/libwlhot.so: tests/workloads/wlhot.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WL_CFLAGS) -shared -fPIC -o $@ $<

# spin3 without symbols: the symbolizer must fall back on .eh_frame
$(BUILD)/workloads/spin3-stripped: $(BUILD)/workloads/spin3
	$(Q)strip -o $@ $<

$(BUILD)/workloads/cppwork: tests/workloads/cppwork.cpp
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(WL_CFLAGS) -o $@ $<

WORKLOADS_EXTRA := $(BUILD)/workloads/libwlhot.so \
	$(BUILD)/workloads/spin3-stripped $(BUILD)/workloads/cppwork
