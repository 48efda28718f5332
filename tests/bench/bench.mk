# make bench: figures against the installed perf (included by the Makefile).
BENCH_TOOLS := $(BUILD)/bench/ingest $(BUILD)/bench/runstat

$(BUILD)/bench/ingest: tests/bench/ingest.c $(BUILD)/libptop.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(BUILD)/libptop.a $(LIBS)

$(BUILD)/bench/runstat: tests/bench/runstat.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -g -Wall -o $@ $<

bench: deps-test all workloads $(BENCH_TOOLS)
	$(Q)BUILD=$(CURDIR)/$(BUILD) PTOP=$(CURDIR)/$(BUILD)/ptop \
	  WL=$(CURDIR)/$(BUILD)/workloads tests/bench/run.sh

# annotate: one function of a shared object, in process (run-annotate.sh)
BENCH_TOOLS += $(BUILD)/bench/annotate
bench: $(BUILD)/bench/annotate
$(BUILD)/bench/annotate: tests/bench/annotate.c $(BUILD)/libptop.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(BUILD)/libptop.a $(LIBS)
