# faults — fault injection, SQLite style (docs/RELIABILITY.md).
#
#   make test-faults            build build-faults/boids-faults (ASan + UBSan,
#                               tests/faults/shim.c wrapped in), then fail
#                               every allocation and every write of a short
#                               render of each output kind, one run per N
#   make test-faults FAULT_KINDS="mp4 png"   only some kinds
#
# Included at the end of the Makefile; `make check` runs it too.

FAULTS_BUILD = build-faults
FAULT_KINDS ?= mp4 png y4m gif traj metrics summary config init traj3d metrics3d init3d trajgz trajzst trajh5
FAULT_WRAP = $(foreach f,malloc calloc realloc strdup strndup fopen fdopen \
	fwrite fputs fputc fprintf vfprintf fflush fclose fsync rename link close,-Wl,--wrap=$(f))

.PHONY: test-faults

test-faults:
	@scripts/install-deps.sh build test
	@$(MAKE) --no-print-directory BUILD=$(FAULTS_BUILD) CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
		$(FAULTS_BUILD)/boids-faults
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		tests/faults/sweep.sh $(abspath $(FAULTS_BUILD)/boids-faults) $(FAULT_KINDS)

$(BUILD)/faults/shim.o: tests/faults/shim.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=gnu11 $(WARN) -MMD -MP $(CFLAGS) -c -o $@ $<

$(BUILD)/boids-faults: $(OBJS) $(BUILD)/faults/shim.o
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(FAULT_WRAP) -o $@ $^ $(LIBS) -ldl

check: test-faults

-include $(BUILD)/faults/shim.d

.PHONY: faults-clean
faults-clean:
	rm -rf $(FAULTS_BUILD)
clean: faults-clean
