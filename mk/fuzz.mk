# fuzz — libFuzzer harnesses for the parsers of hostile input (docs/FUZZING.md).
#
#   make fuzz                   build build-fuzz/fuzz_<target>, run each FUZZ_SECONDS
#   make fuzz-cli               one target (cli config color framename traj)
#   make fuzz FUZZ_SECONDS=300 FUZZ_TARGETS="config traj"
#   make fuzz FUZZ_STRICT=1     also check what known, unfixed bugs break
#   make fuzz-crashes           replay tests/fuzz/crashes/ strictly: which still fail
#   make fuzz-build             only build;  make fuzz-clean  remove build-fuzz*
#
# Included at the end of the Makefile; works alone too: make -f mk/fuzz.mk fuzz.
#
# A run reads tests/fuzz/corpus/<target>/ and writes what it finds into a
# scratch directory, never into the corpus.  Afterwards the corpus is rebuilt
# as its hand-written seeds (seed-*) plus the fewest other inputs covering the
# same (libFuzzer -set_cover_merge=1), so it stays small; the test suite
# replays it (tests/test_fuzz_corpus.c).  A crash, leak, timeout or violated
# invariant stops the run with a non-zero status and leaves the input in
# $(FUZZ_BUILD)/crashes/<target>/.

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 30
FUZZ_TARGETS  ?= cli config color framename traj
FUZZ_STRICT   ?= 0
FUZZ_MAX_LEN  ?= 4096
# Longest input per target, bytes: room for the cases, no more (a small corpus).
FUZZ_MAX_LEN_cli       = 1024
FUZZ_MAX_LEN_config    = 2048
FUZZ_MAX_LEN_color     = 64
FUZZ_MAX_LEN_framename = 512
FUZZ_MAX_LEN_traj      = 8192
FUZZ_ARGS     ?=
FUZZ_BUILD    ?= build-fuzz$(if $(filter 1,$(FUZZ_STRICT)),-strict)

ifeq ($(origin Q),undefined)
ifeq ($(V),1)
Q =
else
Q = @
endif
endif

FUZZ_WARN   = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
FUZZ_SAN    = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -g -O1 $(FUZZ_WARN) $(FUZZ_SAN) -Iinclude -DFUZZ_STRICT=$(FUZZ_STRICT) \
              $(shell pkg-config --cflags $(FUZZ_PKGS))
FUZZ_LIBS   = $(shell pkg-config --libs $(FUZZ_PKGS)) -lm -pthread
# cli.c needs color.c and, for --list-models, the model registry (the models
# and what they use: grid, pool, rng).  Its defaults come from the modules
# themselves (sim_params_default, render_params_default;
# video_options_default is inline in video.h): sim.c and the renderer's
# files are linked, with Cairo, but only those setters run; they are not
# instrumented (below).
FUZZ_DEFAULTS = src/sim.c src/render.c src/outline.c src/decor.c src/backdrop.c src/raster.c src/bands.c src/render3d.c src/points.c src/camera.c src/colormap.c
FUZZ_SRCS   = src/cli.c src/values.c src/options.c src/resolve.c src/cli_print.c src/caption.c src/plugin.c src/suggest.c src/color.c src/framename.c src/lineread.c src/signals.c src/grow.c src/traj.c src/fmtnum.c tests/fuzz/targets.c \
              $(wildcard src/models/*.c) src/grid.c src/pool.c src/rng.c $(FUZZ_DEFAULTS)
FUZZ_OBJS   = $(FUZZ_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_PKGS   = cairo
FUZZ_BINS   = $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

# Kept: make would delete them as intermediates of the pattern rules.
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_BINS)

.PHONY: fuzz fuzz-build fuzz-crashes fuzz-crashes-strict fuzz-clean fuzz-tools $(FUZZ_TARGETS:%=fuzz-%)

fuzz: $(FUZZ_TARGETS:%=fuzz-%)

fuzz-build: $(FUZZ_BINS)

fuzz-tools:
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' | \
		$(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null || { \
		echo "boids: fuzzing needs $(FUZZ_CC) with libFuzzer (apt-get install clang libclang-rt-dev)" >&2; exit 1; }

# The parsers are instrumented for coverage (fuzzer-no-link), the checks in
# targets.c are not: their loops would count as new behaviour of the parsers
# and bloat the corpus.  Only the final link adds libFuzzer's main.
FUZZ_COV = -fsanitize=fuzzer-no-link
$(FUZZ_BUILD)/obj/tests/fuzz/targets.o $(FUZZ_DEFAULTS:%.c=$(FUZZ_BUILD)/obj/%.o): FUZZ_COV =

$(FUZZ_BUILD)/obj/%.o: %.c | fuzz-tools
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COV) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_main.c tests/fuzz/targets.h $(FUZZ_OBJS) | fuzz-tools
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_TARGET=fuzz_$* -o $@ $< $(FUZZ_OBJS) $(FUZZ_LIBS)

# Dictionaries for the mutator, scraped from the sources so that they follow
# the option and colour tables and the model registry (-m's names).
FUZZ_CHOICES = grep -o '_names\[\] = {[^}]*}' src/options.c | grep -o '"[a-z]*"'; \
	sed -n 's/^[[:space:]]*X(\([a-z0-9]*\),.*/"\1"/p' include/model.h
$(FUZZ_BUILD)/dict/cli.dict: src/options.c src/options.def include/model.h
	@mkdir -p $(dir $@)
	$(Q){ sed -n 's/^OPT([A-Z0-9_]*, "\([a-z0-9-]*\)", .*/"--\1"/p' src/options.def; \
	  sed -n "s/^OPT([A-Z0-9_]*, \"[a-z0-9-]*\", '\\(.\\)'.*/\"-\\1\"/p" src/options.def; $(FUZZ_CHOICES); \
	  printf '"%s"\n' '\x00' = auto yes 640x360 '\x23fff' f_%05d.png 1e300 nan 1,2,3; } | sort -u >$@
$(FUZZ_BUILD)/dict/config.dict: src/options.c src/options.def include/model.h
	@mkdir -p $(dir $@)
	$(Q){ sed -n 's/^OPT([A-Z0-9_]*, "\([a-z0-9-]*\)", .*/"\1 = "/p' src/options.def; $(FUZZ_CHOICES); \
	  printf '"%s"\n' '\x0a' '\x0d\x0a' '\x00' '\x09' '\x23' ';' '[' '\x22' '\x5c' '\x5cn' '\x5c\x22' \
	    yes no auto 1e300 nan 1,2,3; } | sort -u >$@
$(FUZZ_BUILD)/dict/color.dict: src/color.c
	@mkdir -p $(dir $@)
	$(Q){ sed -n 's/^[[:space:]]*{ "\([a-z]*\)",[[:space:]]*0x.*/"\1"/p' src/color.c; printf '"\x23"\n'; } >$@
$(FUZZ_BUILD)/dict/framename.dict:
	@mkdir -p $(dir $@)
	$(Q)printf '"%s"\n' %d %0 %% 10d 05d .png / >$@
$(FUZZ_BUILD)/dict/traj.dict:
	@mkdir -p $(dir $@)
	$(Q)printf '"%s"\n' 'frame,id,x,y,vx,vy\x0a' 'frame,id,x,y,vx,vy,z,vz\x0a' ,z,vz '\x0a' '\x0d\x0a' , nan inf e308 e-308 e-324 -0 0x1p 9223372036854775807 >$@

# One target: fuzz, then rebuild the corpus as seeds + what adds coverage.
$(FUZZ_TARGETS:%=fuzz-%): fuzz-%: $(FUZZ_BUILD)/fuzz_% $(FUZZ_BUILD)/dict/%.dict
	@corpus=tests/fuzz/corpus/$*; new=$(FUZZ_BUILD)/new/$*; min=$(FUZZ_BUILD)/min/$*; \
	crashes=$(FUZZ_BUILD)/crashes/$*; log=$(FUZZ_BUILD)/fuzz_$*.log; \
	dict=$(FUZZ_BUILD)/dict/$*.dict; \
	rm -rf $$new $$min; mkdir -p $$new $$min $$crashes $$corpus; \
	before=$$(ls $$corpus | wc -l); \
	echo "  FUZZ    $* for $(FUZZ_SECONDS) s (log: $$log)"; \
	$< -max_total_time=$(FUZZ_SECONDS) -max_len=$(or $(FUZZ_MAX_LEN_$*),$(FUZZ_MAX_LEN)) -timeout=10 \
		-print_final_stats=1 -artifact_prefix=$$crashes/ -dict=$$dict \
		$(FUZZ_ARGS) $$new $$corpus >$$log 2>&1; rc=$$?; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log | tail -n 1); \
	if [ $$rc -ne 0 ]; then \
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*invariant violated)' $$log | head -n 3 >&2; \
		echo "fuzz $*: FAILED after $${runs:-?} runs (exit $$rc); input in $$crashes/, log $$log" >&2; \
		exit 1; fi; \
	found=$$(ls $$new | wc -l); \
	cp $$corpus/seed-* $$min/ 2>/dev/null; \
	$< -set_cover_merge=1 -max_len=$(or $(FUZZ_MAX_LEN_$*),$(FUZZ_MAX_LEN)) -timeout=10 $$min $$corpus $$new >>$$log 2>&1 || \
		{ echo "fuzz $*: merge failed, corpus left as it was; log $$log" >&2; exit 1; }; \
	rm -f $$corpus/*; cp $$min/* $$corpus/; \
	after=$$(ls $$corpus | wc -l); kb=$$(cat $$corpus/* | wc -c | awk '{print int(($$1 + 1023) / 1024)}'); \
	echo "fuzz $*: $$runs runs in $(FUZZ_SECONDS) s, $$found new inputs, corpus $$before -> $$after files ($$kb KB)"; \
	if [ $$after -gt 400 ] || [ $$kb -gt 1024 ]; then \
		echo "fuzz $*: warning: corpus above 400 files or 1 MB" >&2; fi

# Inputs kept from known bugs (tests/fuzz/crashes/<target>/), replayed with
# every check on: "fixed" once an input passes.
fuzz-crashes:
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) FUZZ_STRICT=1 fuzz-crashes-strict

fuzz-crashes-strict: $(FUZZ_BINS)
	@status=0; for t in $(FUZZ_TARGETS); do \
		for f in tests/fuzz/crashes/$$t/*; do \
			[ -f "$$f" ] || continue; \
			if $(FUZZ_BUILD)/fuzz_$$t "$$f" >/dev/null 2>&1; then echo "fixed          $$f"; \
			else echo "still failing  $$f"; status=1; fi; \
		done; done; exit $$status

fuzz-clean:
	rm -rf build-fuzz build-fuzz-strict

-include $(FUZZ_OBJS:.o=.d)
