# boids — build, test, install.
#
#   make                  build build/boids
#   make demo             install what building needs, build, render flock.mp4 (a flock: --warmup 300)
#   make test             the hermetic tier: unit, command-line, render and video tests
#                         (once built: 56 s on 2 cores, 95 s of CPU, docs/INSTALL.md;
#                         boids runs in a forked child of the test;
#                         BOIDS_TEST_EXEC=1 makes every test start build/boids instead)
#   make test-integration the machine tier: ssh sweeps on loopback, Slurm, full disks,
#                         signals, a clean clone as an ordinary user, valgrind
#   make check            every tier, then both test binaries under ASan + UBSan (build-san/)
#   make check-valgrind   short renders of every kind under valgrind memcheck
#   make bench            benchmarks, printed as ratios (scripts/bench.sh)
#   make deps             install every Debian package any target needs
#   make install          PREFIX=/usr/local DESTDIR= (binary, plugins, man page, completions, docs, examples)
#   make deb              build/boids_VERSION_ARCH.deb (mk/deb.mk)
#   V=1                   show the commands
#
# Each target installs only the packages of its purposes (scripts/install-deps.sh).

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
LDFLAGS ?=

# The binary links Cairo and libpng (with zlib and zstd); FFmpeg's libraries
# only through the video plugin, $(BUILD)/boids-video.so, which it loads
# when a run writes video (include/video_plugin.h), and libhdf5 only through
# the HDF5 plugin, $(BUILD)/boids-hdf5.so, loaded when a run reads or writes
# an .h5 trajectory (include/traj_h5_plugin.h).  The test binaries link
# everything.  hdf5-serial: libhdf5-dev's own .pc (hdf5.pc is an
# alternatives link that may point at an MPI build)
CORE_PKGS  = cairo libpng zlib libzstd
VIDEO_PKGS = libavformat libavcodec libavutil libswscale libavfilter
H5_PKGS    = hdf5-serial
PKGS      = $(CORE_PKGS) $(VIDEO_PKGS) $(H5_PKGS)
TEST_PKGS = criterion
# The caption plugin's (build/boids-caption.so): not linked into boids.
CAPTION_SO     = boids-caption.so
CAPTION_PKGS   = pangocairo

WARN = -Wall -Wextra -Wshadow -Wconversion -Wmissing-prototypes -Wstrict-prototypes
# Recursive variables: pkg-config runs when a recipe needs them, after `deps`.
PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS    = $(shell pkg-config --libs $(PKGS))
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS))
TEST_LIBS   = $(shell pkg-config --libs $(TEST_PKGS))
CAPTION_CFLAGS = $(shell pkg-config --cflags $(CAPTION_PKGS))
CAPTION_LIBS   = $(shell pkg-config --libs $(CAPTION_PKGS))
ALL_CFLAGS  = -std=gnu11 $(WARN) -Iinclude $(PKG_CFLAGS) -pthread -MMD -MP $(CFLAGS)
LIBS        = $(PKG_LIBS) -lm -pthread
# abm's lanes are GCC vector types, never passed by value (forced inline):
# GCC's note that passing them would change with AVX survives the file's
# pragma, so the file is built without it.
$(BUILD)/models/abm.o: WARN += -Wno-psabi
CORE_LIBS   = $(shell pkg-config --libs $(CORE_PKGS)) -lm -pthread -ldl
VIDEO_LIBS  = $(shell pkg-config --libs $(VIDEO_PKGS)) -lm -pthread
H5_LIBS     = $(shell pkg-config --libs $(H5_PKGS)) -lm

SRCS  = $(wildcard src/*.c src/models/*.c)
OBJS  = $(SRCS:src/%.c=$(BUILD)/%.o)
# The video and HDF5 modules: each plugin's objects (position-independent,
# only its table exported); the binary has video_load.o and
# traj_h5_loader.o in their place.
VIDEO_OBJS  = $(addprefix $(BUILD)/,video.o codecs.o avio_fd.o yuv.o)
PLUGIN_OBJS = $(VIDEO_OBJS) $(BUILD)/video_plugin.o $(BUILD)/pic/suggest.o
H5_PLUGIN_OBJS = $(BUILD)/traj_h5.o $(BUILD)/traj_h5_plugin.o
LOADER_OBJS = $(BUILD)/video_load.o $(BUILD)/traj_h5_loader.o
BIN_OBJS = $(filter-out $(PLUGIN_OBJS) $(H5_PLUGIN_OBJS),$(OBJS))
# Everything but main() and the loaders: the test binaries (and the
# fault-injection build) link the video and HDF5 modules directly.
LIB_OBJS = $(filter-out $(BUILD)/main.o $(LOADER_OBJS) $(BUILD)/video_plugin.o $(BUILD)/traj_h5_plugin.o,$(OBJS))
TSRCS = $(wildcard tests/*.c)
TOBJS = $(TSRCS:tests/%.c=$(BUILD)/tests/%.o)
# Machine-level tests (ssh on loopback, Slurm, full disks, signals, a clean
# clone): their own binary, run by `make test-integration`; they share
# tests/common.c.
ISRCS = $(wildcard tests/integration/*.c)
IOBJS = $(ISRCS:tests/integration/%.c=$(BUILD)/tests/integration/%.o) $(BUILD)/tests/common.o

ifeq ($(V),1)
Q =
else
Q = @
endif

.PHONY: FORCE all deps demo test test-integration check check-valgrind valgrind-renders bench fuzz install install-sweep install-docs uninstall clean pkgcheck

all: $(BUILD)/boids $(BUILD)/boids-video.so $(BUILD)/boids-hdf5.so

pkgcheck:
	@missing=""; for p in $(PKGS) $(CAPTION_PKGS) $(if $(filter %tests,$(MAKECMDGOALS) $(NEED_TESTS)),$(TEST_PKGS)); do \
		pkg-config --exists $$p || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "boids: missing libraries (pkg-config):$$missing; run 'make deps'" >&2; exit 1; fi

# The plugins come with the binary: whatever builds one builds them all.
$(BUILD)/boids: $(BIN_OBJS) | $(BUILD)/boids-video.so $(BUILD)/boids-hdf5.so $(BUILD)/$(CAPTION_SO)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(BIN_OBJS) $(CORE_LIBS)

$(BUILD)/boids-video.so: $(PLUGIN_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -o $@ $(PLUGIN_OBJS) $(VIDEO_LIBS)

$(PLUGIN_OBJS): ALL_CFLAGS += -fPIC -fvisibility=hidden
# "did you mean" for encoders and presets: suggest.c in the plugin too
$(BUILD)/pic/%.o: src/%.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $< (for the plugin)"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/boids-hdf5.so: $(H5_PLUGIN_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -o $@ $(H5_PLUGIN_OBJS) $(H5_LIBS)

$(H5_PLUGIN_OBJS): ALL_CFLAGS += -fPIC -fvisibility=hidden

# The caption plugin (include/caption_plugin.h): Pango and what it needs
# (GLib, HarfBuzz, fontconfig) are mapped only by a run with --caption.
# The test binaries link its object directly.
$(BUILD)/plugins/caption_pango.o: src/plugins/caption_pango.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(CAPTION_CFLAGS) -fPIC -c -o $@ $<
$(BUILD)/$(CAPTION_SO): $(BUILD)/plugins/caption_pango.o
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -o $@ $< $(CAPTION_LIBS)

# The commit --version names, in $(BUILD)/commit.h, rewritten only when it
# changes (so version.o is rebuilt then, and only then).  Outside a git
# checkout (a source tarball) it is "" and --version says so.
BOIDS_COMMIT = $(shell git -C '$(CURDIR)' rev-parse --is-inside-work-tree >/dev/null 2>&1 && \
                 git -C '$(CURDIR)' describe --always --dirty --abbrev=12 2>/dev/null)
$(BUILD)/commit.h: FORCE
	@mkdir -p $(BUILD)
	@printf '#define BOIDS_COMMIT "%s"\n' '$(BOIDS_COMMIT)' >$@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/version.o: $(BUILD)/commit.h
$(BUILD)/version.o: ALL_CFLAGS += -I$(BUILD)
FORCE:

$(BUILD)/%.o: src/%.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -DSRCDIR='"$(CURDIR)"' -c -o $@ $<

# main() again as boids_main(), for the hermetic test binary: tc_boids()
# runs it in a forked child instead of exec'ing build/boids (see
# tests/common.h; BOIDS_TEST_EXEC=1 runs the binary instead).
$(BUILD)/tests/boids_main.o: src/main.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $< (as boids_main)"
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Dmain=boids_main -c -o $@ $<

$(BUILD)/tests/integration/%.o: tests/integration/%.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -Itests -DSRCDIR='"$(CURDIR)"' -c -o $@ $<

$(BUILD)/tests/integration/run: $(LIB_OBJS) $(IOBJS) $(BUILD)/plugins/caption_pango.o
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(IOBJS) $(LIB_OBJS) $(BUILD)/plugins/caption_pango.o $(TEST_LIBS) $(LIBS) $(CAPTION_LIBS)

# Test plugins (tests/plugins/): what the loader must refuse, built as
# shared objects that may leave symbols undefined (no -z defs).
TEST_PLUGINS = $(patsubst tests/plugins/%.c,$(BUILD)/tests/plugins/%.so,$(wildcard tests/plugins/*.c))
$(BUILD)/tests/plugins/%.so: tests/plugins/%.c | pkgcheck
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $<

# The durability test's LD_PRELOAD library (tests/preload/fsync-log.c),
# built plainly: it is preloaded into the sanitizer builds too.
$(BUILD)/tests/fsync-log.so: tests/preload/fsync-log.c
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) -shared -fPIC -O1 -o $@ $< -ldl

$(BUILD)/tests/run: $(LIB_OBJS) $(TOBJS) $(BUILD)/tests/boids_main.o $(BUILD)/plugins/caption_pango.o | $(TEST_PLUGINS) \
		$(BUILD)/tests/fsync-log.so
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TOBJS) $(BUILD)/tests/boids_main.o $(LIB_OBJS) \
		$(BUILD)/plugins/caption_pango.o $(TEST_LIBS) $(LIBS) $(CAPTION_LIBS)

$(BUILD)/bench_sim: tests/bench/bench_sim.c $(LIB_OBJS) | pkgcheck
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

bench:
	@scripts/install-deps.sh build bench
	@$(MAKE) --no-print-directory $(BUILD)/boids $(BUILD)/bench_sim
	@BUILD=$(BUILD) scripts/bench.sh

deps:
	@scripts/install-deps.sh all

# The hermetic tier.  tc_boids() runs boids's main() in a forked child of
# the test (tests/common.h); tests that need a shell, the example scripts
# and --version/--help start the real binary, so build both.
test:
	@scripts/install-deps.sh build test
	@$(MAKE) --no-print-directory NEED_TESTS=1 $(BUILD)/boids $(BUILD)/tests/run
	@BOIDS_BIN=$(abspath $(BUILD)/boids) $(BUILD)/tests/run --xml=$(BUILD)/tests/times.xml $(TESTFLAGS); \
		status=$$?; [ ! -s $(BUILD)/tests/times.xml ] || awk -f tests/slowest.awk $(BUILD)/tests/times.xml; exit $$status

# The machine tier: ssh sweeps on loopback, Slurm when it can start, full
# disks, signals, a clean clone as an ordinary user; then valgrind.  What a
# test keeps for people to look at (the report page's screenshots) is copied
# to $(BUILD)/test-artifacts/.
test-integration:
	@scripts/install-deps.sh build test sweep integration package
	@$(MAKE) --no-print-directory NEED_TESTS=1 $(BUILD)/boids $(BUILD)/tests/integration/run
	@BOIDS_BIN=$(abspath $(BUILD)/boids) BOIDS_TEST_ARTIFACTS=$(abspath $(BUILD)/test-artifacts) \
		$(BUILD)/tests/integration/run $(TESTFLAGS)
	@$(MAKE) --no-print-directory valgrind-renders

# Every tier, then both test binaries under AddressSanitizer +
# UndefinedBehaviorSanitizer (the clean-clone and package tests run once,
# above: they build their own unsanitized binaries; the docs test too: its
# minutes are the docs' commands, not the test binary's code).
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SAN_ENV = ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 BOIDS_BIN=$(abspath build-san/boids)
check:
	@scripts/install-deps.sh all
	@$(MAKE) --no-print-directory test
	@echo "== the hermetic tier again, every test starting the binary (BOIDS_TEST_EXEC=1)"
	@BOIDS_TEST_EXEC=1 $(MAKE) --no-print-directory test
	@$(MAKE) --no-print-directory test-integration
	@$(MAKE) --no-print-directory BUILD=build-san CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
		NEED_TESTS=1 build-san/boids build-san/tests/run build-san/tests/integration/run
	@echo "== the hermetic tier under ASan + UBSan (starting the binary: LeakSanitizer checks each run)"
	@$(SAN_ENV) BOIDS_TEST_EXEC=1 build-san/tests/run $(TESTFLAGS)
	@echo "== the machine tier under ASan + UBSan"
	@$(SAN_ENV) build-san/tests/integration/run --filter='!(fresh|deb|docs|gallery)/*' $(TESTFLAGS)

# A short render of every kind under valgrind memcheck: no errors, no leaks.
VALGRIND = valgrind -q --error-exitcode=1 --suppressions=tests/valgrind/valgrind.supp --leak-check=full --show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect
check-valgrind:
	@scripts/install-deps.sh build dev
	@$(MAKE) --no-print-directory valgrind-renders
# valgrind 3.19 dies of SIGILL on some CPUs in libhwy's load-time timer
# calibration (rdtscp), before boids's main: then the renders run with
# tests/valgrind/hwy-timer.c preloaded, which replaces that one function.
$(BUILD)/valgrind-hwy-timer.so: tests/valgrind/hwy-timer.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -shared -fPIC -O2 -Wall -Wextra -o $@ $<
valgrind-renders: $(BUILD)/boids $(BUILD)/valgrind-hwy-timer.so
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && set -e && \
	if ! $(VALGRIND) $(BUILD)/boids --version >/dev/null 2>$$d/probe; then \
		if grep -q 'SIGILL' $$d/probe && grep -q 'hwy::platform::TimerResolution' $$d/probe; then \
			export LD_PRELOAD=$(abspath $(BUILD)/valgrind-hwy-timer.so); \
			echo "  note: valgrind cannot run libhwy's rdtscp here: its timer calibration is replaced (tests/valgrind/hwy-timer.c)"; \
		fi; \
		if ! $(VALGRIND) $(BUILD)/boids --version >/dev/null 2>$$d/probe; then cat $$d/probe; exit 1; fi; \
	fi; \
	for out in v.mp4 v.gif f_%02d.png; do \
		echo "  VALGRIND boids -o $$out"; \
		$(VALGRIND) $(BUILD)/boids -q -f 8 -s 160x90 -n 40 --trail 3 --obstacle 80,45,10 \
			--background-style noise --metrics $$d/m.csv --summary $$d/s.json -y -o $$d/$$out; \
	done; \
	echo "  VALGRIND boids -m steering --no-render"; \
	$(VALGRIND) $(BUILD)/boids -q -f 20 -m steering --no-render --trajectory $$d/t.csv -y; \
	echo "  VALGRIND boids --init (reading a trajectory back)"; \
	$(VALGRIND) $(BUILD)/boids -q -f 3 --init $$d/t.csv --update synchronous -o $$d/i.y4m -y; \
	echo "  VALGRIND boids --trajectory t.h5, then --init t.h5 --trajectory t.csv.zst"; \
	$(VALGRIND) $(BUILD)/boids -q -f 5 -n 30 --no-render --trajectory $$d/t.h5 --trajectory-compress 1 -y; \
	$(VALGRIND) $(BUILD)/boids -q -f 2 --init $$d/t.h5 --no-render --trajectory $$d/t.csv.zst -y; \
	echo "check-valgrind: no errors, no leaks"

demo:
	@scripts/install-deps.sh build
	@$(MAKE) --no-print-directory $(BUILD)/boids
	$(BUILD)/boids -y --warmup 300 -o flock.mp4

# Completion scripts, written by the binary from its option table.
$(BUILD)/boids.bash: $(BUILD)/boids
	$(Q)$(BUILD)/boids --completion bash > $@.tmp && mv $@.tmp $@
$(BUILD)/_boids: $(BUILD)/boids
	$(Q)$(BUILD)/boids --completion zsh > $@.tmp && mv $@.tmp $@

BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/vendor-completions
DOCDIR      = $(PREFIX)/share/doc/boids
# The sweep tools (Python, scripts/boidsweep/): the entry points and their
# package in PREFIX/share/boids/scripts/, as in a checkout, and boids-sweep,
# boids-sweep-table, boids-sweep-report, boids-chart, boids-contact-sheet and
# boids-hysteresis in PREFIX/bin, links to them (each finds its package beside its real path).
SWEEPDIR    = $(PREFIX)/share/boids/scripts
SWEEP_TOOLS = sweep sweep-table sweep-report chart contact-sheet hysteresis
install-sweep:
	install -d $(DESTDIR)$(SWEEPDIR)/boidsweep $(DESTDIR)$(PREFIX)/bin
	install -m 644 scripts/boidsweep/*.py $(DESTDIR)$(SWEEPDIR)/boidsweep/
	for t in $(SWEEP_TOOLS); do \
		install -m 755 scripts/$$t $(DESTDIR)$(SWEEPDIR)/$$t && \
		ln -sfn ../share/boids/scripts/$$t $(DESTDIR)$(PREFIX)/bin/boids-$$t || exit 1; \
	done

# The README with the docs it links to (docs/*.md and their pictures, in
# DOCDIR/docs/ as in a checkout) and the examples, which they name.
install-docs:
	install -d $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR)/examples/ci
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 644 docs/*.md docs/*.png $(DESTDIR)$(DOCDIR)/docs/
	install -m 755 examples/*.sh $(DESTDIR)$(DOCDIR)/examples/
	install -m 644 examples/*.sbatch $(DESTDIR)$(DOCDIR)/examples/
	install -m 644 examples/ci/* $(DESTDIR)$(DOCDIR)/examples/ci/

install: $(BUILD)/boids $(BUILD)/boids-video.so $(BUILD)/boids-hdf5.so $(BUILD)/$(CAPTION_SO) \
		$(BUILD)/boids.bash $(BUILD)/_boids install-sweep install-docs
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(PREFIX)/lib/boids
	install -m 755 $(BUILD)/boids $(DESTDIR)$(PREFIX)/bin/boids
	install -d $(DESTDIR)$(PREFIX)/lib/boids
	install -m 644 $(BUILD)/boids-video.so $(DESTDIR)$(PREFIX)/lib/boids/boids-video.so
	install -m 644 $(BUILD)/boids-hdf5.so $(DESTDIR)$(PREFIX)/lib/boids/boids-hdf5.so
	install -m 644 $(BUILD)/$(CAPTION_SO) $(DESTDIR)$(PREFIX)/lib/boids/$(CAPTION_SO)
	install -m 644 docs/boids.1 $(DESTDIR)$(PREFIX)/share/man/man1/boids.1
	install -m 644 $(BUILD)/boids.bash $(DESTDIR)$(BASHCOMPDIR)/boids
	install -m 644 $(BUILD)/_boids $(DESTDIR)$(ZSHCOMPDIR)/_boids

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/boids $(DESTDIR)$(PREFIX)/share/man/man1/boids.1 \
		$(DESTDIR)$(PREFIX)/lib/boids/boids-video.so $(DESTDIR)$(PREFIX)/lib/boids/boids-hdf5.so \
		$(DESTDIR)$(PREFIX)/lib/boids/$(CAPTION_SO) \
		$(DESTDIR)$(BASHCOMPDIR)/boids $(DESTDIR)$(ZSHCOMPDIR)/_boids \
		$(SWEEP_TOOLS:%=$(DESTDIR)$(PREFIX)/bin/boids-%)
	rm -rf $(DESTDIR)$(PREFIX)/share/boids
	-rmdir $(DESTDIR)$(PREFIX)/lib/boids 2>/dev/null
	rm -rf $(DESTDIR)$(DOCDIR)
	-rmdir $(DESTDIR)$(PREFIX)/lib/boids 2>/dev/null

clean:
	rm -rf build build-san build-fuzz build-fuzz-strict

-include $(OBJS:.o=.d) $(BUILD)/pic/suggest.d $(TOBJS:.o=.d) $(IOBJS:.o=.d) $(BUILD)/bench_sim.d $(BUILD)/tests/boids_main.d \
	$(BUILD)/plugins/caption_pango.d

# libFuzzer harnesses: make fuzz (FUZZ_SECONDS=30), see docs/FUZZING.md
include mk/fuzz.mk
# make deb: a Debian package of the binary, man page, completions and examples
include mk/deb.mk
# Fault injection: make test-faults, see docs/RELIABILITY.md
include mk/faults.mk
