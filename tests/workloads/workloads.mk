# Test workloads (included by the Makefile).  Each tests/workloads/NAME.c
# becomes $(BUILD)/workloads/NAME; the extras below need special steps.

$(BUILD)/workloads/%: tests/workloads/%.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  WL      $@")
	$(Q)$(CC) $(WL_CFLAGS) -fno-shrink-wrap -o $@ $< -ldl

# the library that dlwork dlopen()s (the .c is not a program)
WORKLOADS := $(filter-out $(BUILD)/workloads/wlhot,$(WORKLOADS))
$(BUILD)/workloads/libwlhot.so: tests/workloads/wlhot.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WL_CFLAGS) -shared -fPIC -o $@ $<

# cgwork links libwlcg.so (found next to it through its rpath); a copy
# built without frame pointers is for --call-graph dwarf.
WORKLOADS := $(filter-out $(BUILD)/workloads/wlcg $(BUILD)/workloads/cgwork,$(WORKLOADS))
# Leaf functions keep their frame too, or frame-pointer chains skip their
# callers: GCC 12 omits leaf frames whatever the flags, clang does not.
# And no shrink-wrapping: a loop without calls (wl.h) gets its frame set up
# after the loop, so that samples in it see the caller's frame pointer
# and the chains skip the caller.
CG_CC := clang
CG_FP := -mno-omit-leaf-frame-pointer -mllvm -enable-shrink-wrap=false
$(BUILD)/workloads/libwlcg.so: tests/workloads/wlcg.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -shared -fPIC -o $@ $<

$(BUILD)/workloads/libwlcg-nofp.so: tests/workloads/wlcg.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CG_CC) $(WL_CFLAGS) -fomit-frame-pointer -shared -fPIC -o $@ $<

$(BUILD)/workloads/cgwork: tests/workloads/cgwork.c tests/workloads/wl.h $(BUILD)/workloads/libwlcg.so
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -o $@ $< -L$(BUILD)/workloads -lwlcg -Wl,-rpath,'$$ORIGIN'

$(BUILD)/workloads/cgwork-nofp: tests/workloads/cgwork.c tests/workloads/wl.h $(BUILD)/workloads/libwlcg-nofp.so
	$(Q)$(CG_CC) $(WL_CFLAGS) -fomit-frame-pointer -o $@ $< -L$(BUILD)/workloads -lwlcg-nofp -Wl,-rpath,'$$ORIGIN'

# inlwork calls through an always_inline function: its DWARF has the
# DW_TAG_inlined_subroutine the trees' inlined frames come from; clang and
# frame pointers like cgwork's, so that -g chains hold outer_fn.
WORKLOADS := $(filter-out $(BUILD)/workloads/inlwork,$(WORKLOADS))
$(BUILD)/workloads/inlwork: tests/workloads/inlwork.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -o $@ $<

# chainwork: a chain through six libraries with compressed DWARF (-gz),
# each linked against the next (wlchain.c)
WORKLOADS := $(filter-out $(BUILD)/workloads/wlchain $(BUILD)/workloads/chainwork,$(WORKLOADS))
$(BUILD)/workloads/libwlchain6.so: tests/workloads/wlchain.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -gz=zlib -DLINK=6 -shared -fPIC -o $@ $<
$(BUILD)/workloads/libwlchain%.so: tests/workloads/wlchain.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -gz=zlib -DLINK=$* -DNEXT=$$(($*+1)) -shared -fPIC -o $@ $< \
		-L$(BUILD)/workloads -lwlchain$$(($*+1)) -Wl,-rpath,'$$ORIGIN'
$(BUILD)/workloads/libwlchain5.so: $(BUILD)/workloads/libwlchain6.so
$(BUILD)/workloads/libwlchain4.so: $(BUILD)/workloads/libwlchain5.so
$(BUILD)/workloads/libwlchain3.so: $(BUILD)/workloads/libwlchain4.so
$(BUILD)/workloads/libwlchain2.so: $(BUILD)/workloads/libwlchain3.so
$(BUILD)/workloads/libwlchain1.so: $(BUILD)/workloads/libwlchain2.so
$(BUILD)/workloads/chainwork: tests/workloads/chainwork.c tests/workloads/wl.h $(BUILD)/workloads/libwlchain1.so
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -gz=zlib -o $@ $< -L$(BUILD)/workloads -lwlchain1 -Wl,-rpath,'$$ORIGIN'

# spin3 without symbols: the symbolizer must fall back on .eh_frame
$(BUILD)/workloads/spin3-stripped: $(BUILD)/workloads/spin3
	$(Q)strip -o $@ $<

$(BUILD)/workloads/cppwork: tests/workloads/cppwork.cpp tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(WL_CFLAGS) -o $@ $<

# cxxnames: -O2, so that gcc clones functions ([clone .isra.0]) as it does
# in real programs; perfdata_names.sh compares its names with perf report
$(BUILD)/workloads/cxxnames: tests/workloads/cxxnames.cpp tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CXX) -O2 -g -fno-omit-frame-pointer -o $@ $<

# sweep under other names (-DPFX): other builds of the same program, for
# mapped_change.sh
$(BUILD)/workloads/sweep-%: tests/workloads/sweep.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WL_CFLAGS) -DPFX=$* -o $@ $<

# cxxinl: an inlined member function template (names of inlined frames)
$(BUILD)/workloads/cxxinl: tests/workloads/cxxinl.cpp tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CXX) -O1 -g -fno-omit-frame-pointer -o $@ $<

WORKLOADS_EXTRA := $(BUILD)/workloads/cxxnames $(BUILD)/workloads/cxxinl \
	$(BUILD)/workloads/libwlhot.so \
	$(BUILD)/workloads/sweep-b $(BUILD)/workloads/sweep-c \
	$(BUILD)/workloads/sweep-other \
	$(BUILD)/workloads/cgwork $(BUILD)/workloads/cgwork-nofp \
	$(BUILD)/workloads/spin3-stripped $(BUILD)/workloads/cppwork \
	$(BUILD)/workloads/inlwork $(BUILD)/workloads/chainwork

# syswork: its samples are in the kernel, its user stack unwound from CFI
# alone (no frame pointers) for --call-graph dwarf
$(BUILD)/workloads/syswork: tests/workloads/syswork.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(WL_CFLAGS) -fomit-frame-pointer -fno-shrink-wrap -o $@ $<

# offwork's leaf do_spin keeps its frame (gcc 12 omits it), so that
# frame-pointer chains of its samples hold main, as --wall's test needs:
# clang and frame pointers like cgwork's
$(BUILD)/workloads/offwork: tests/workloads/offwork.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  WL      $@")
	$(Q)$(CG_CC) $(WL_CFLAGS) $(CG_FP) -o $@ $<

# fpwork, fpwait, fpsig: built as a distribution with frame pointers
# builds (gcc -O2 -fno-omit-frame-pointer: frames in every function that
# calls, none in leaves), for the recovery of the callers frame-pointer
# chains lose (doc/design.md, "Recovering the callers frame pointers lose")
FP_WL := fpwork fpwait fpsig
WORKLOADS := $(filter-out $(FP_WL:%=$(BUILD)/workloads/%),$(WORKLOADS))
$(FP_WL:%=$(BUILD)/workloads/%): $(BUILD)/workloads/%: tests/workloads/%.c tests/workloads/wl.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  WL      $@")
	$(Q)gcc -O2 -g -fno-omit-frame-pointer -falign-loops=64 -pthread -o $@ $<
WORKLOADS_EXTRA += $(FP_WL:%=$(BUILD)/workloads/%)
