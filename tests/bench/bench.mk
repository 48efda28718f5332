# make bench: figures against the installed perf (included by the Makefile).
bench: all workloads
	$(Q)BUILD=$(CURDIR)/$(BUILD) PTOP=$(CURDIR)/$(BUILD)/ptop \
	  WL=$(CURDIR)/$(BUILD)/workloads tests/bench/run.sh
