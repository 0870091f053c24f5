#!/usr/bin/env bash
# make bench: performance figures as ratios against baselines measured in the
# same run, side by side (the machines here are shared and noisy).
#
#   1. end to end to MP4: `boids -o x.mp4` / ffmpeg encoding the same frames
#      (dumped by boids as y4m) with the same codec settings; at the defaults
#      (targets: exact drawing <= 1.10, --draw fast <= 1.03) and 10,000 boids
#      at 1920x1080 (exact <= 1.6, fast <= 1.15); then the big scenes, 100k
#      boids at 1920x1080 and 10k at 3840x2160, in frames a second too
#   2. PNG sequence: `boids -o f_%05d.png` / ffmpeg writing the same frames
#      as PNGs from the y4m (target <= 1.0)
#   3. simulation ms per step and drawing cost (tests/bench/bench_sim.c)
#   4. the scaling table: every model x 1k, 10k, 100k, 1M boids at one
#      density, both update orders, 1 and 2 threads; a warning line when time
#      per boid grows more than 1.5x from 10k to 1M; bytes per boid at 1M
#      boids, the simulation alone and whole runs (simulation only, drawing a
#      video), as the peak above the same run with 1k boids (bench_sim --scaling)
#   5. memory: the peak of each scene above, and 300 against 3000 frames (the
#      frame queue bounds it, not the frame count)
#   6. drawing throughput on 1 and 2 threads (y4m to /dev/null: no encoder)
#   7. ten million boids at the default density (--field 151800x151800): CPU a
#      boid and step against 10k boids (target <= 1.5x), peak bytes a boid
#      (target <= 100), a 60-frame 3840x2160 clip with --draw points (frames a
#      second, memory), and --draw points' drawing rate (bench_sim --points,
#      target >= 50 million boids a second on 2 cores); this section alone
#      with BENCH_ONLY=ten
#   8. encoders at 1920x1080: CPU, size and SSIM of x264 presets, x265, VP9
#      and SVT-AV1 against the MP4 default, on the same frames
#   9. trajectories: 100,000 boids x 50 frames written as HDF5 (target <= 1.25)
#      and as CSV (target <= 1.6), then float32 + deflate HDF5, zstd and gzip
#      CSV, each against the simulation alone (--no-render, no file); this
#      section alone with BENCH_ONLY=traj
#  10. a sweep end to end (scripts/sweep): SWEEP_POINTS (10,000; QUICK 1,000)
#      one-frame --no-render runs on this machine, from nothing to the report,
#      with each phase's share (set-up, runs, tables, chart, report), against
#      GNU parallel running the same boids commands alone; this row alone with
#      `scripts/bench.sh --sweep` (BENCH_ONLY=sweep)
#  11. processes and sweep set-up: the CPU of one one-frame --no-render run
#      (target <= 10 ms) against an empty process, and what loading the HDF5
#      plugin adds to a run writing .h5 (against .csv); scripts/sweep setting up
#      10,000 and 100,000 one-frame points (--slurm --no-submit: configs,
#      grid, scripts; targets <= 5 s and <= 50 s), the time per point of
#      the two (linear: x1), their peak memory, and --task on the last point
#      of each (flat: x1).  BENCH_ONLY=setup runs this part alone.
#  12. pictures at every scale: a frame zoomed onto about 1,000 boids of a
#      1M-boid flock (--view; bench_sim --zoom), the window, copy, drawing
#      and encoding against its simulation step (CPU; target <= 0.3), the
#      whole-field --draw density frame of
#      10M boids at 3840x2160 (bench_sim --density, target <= 0.25 s of
#      CPU, smoothing included; beside --draw points of the same boids,
#      frame for frame, as a ratio), and 50,000 boids at the default density after 600 warm-up
#      steps against the same boids scattered (frame 0), --draw density
#      --density-range 0.02,2 and --draw points: the coefficient of
#      variation of brightness over 16x16 blocks (tests/bench/block_cv.py,
#      target >= 2x); this section alone with BENCH_ONLY=view
#  13. the ABM frameworks comparison's Flocking (-m abm) beside MASON, its
#      comparison's Java program (MASON_DIR, default ../shared/peers/mason;
#      skipped with a line when absent): the steps alone at the declared
#      small and large sizes (targets >= x10), 80,000 birds in 400x400
#      (target >= x20) and 1M at that density, each as the medians and
#      their ratio; whole processes and the JVM's start alone (target: a
#      whole boids run faster than it).  BENCH_ONLY=abm runs this part alone
#  14. Vicsek et al.'s Fig. 2a at N = 10,000 (rho = 4): v_a against the
#      noise, and the time a point takes.  BENCH_ONLY=vicsek runs it alone
#
# Each timing is the median of REPS runs (default 3), the two commands of a
# ratio alternating so that a burst of noise hits both; end-to-end ratios
# are given for the wall clock and for CPU time (user + system, every
# thread), which other load on the machine moves much less.  QUICK=1 runs
# fewer frames.  The load average is printed at the start and the end.
set -euo pipefail
[ "${1:-}" = --sweep ] && BENCH_ONLY=sweep
BUILD=${BUILD:-build}
BOIDS=$(cd "$(dirname "$0")/.." && pwd)/$BUILD/boids
BENCH_SIM=$(cd "$(dirname "$0")/.." && pwd)/$BUILD/bench_sim
SCRIPTS=$(cd "$(dirname "$0")" && pwd)
REPS=${REPS:-3}
QUICK=${QUICK:-}
work=$(mktemp -d /tmp/boids-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

# time_cmd "CMD": "WALL CPU", seconds the shell command took and its CPU time (user + system)
time_cmd() {
	/usr/bin/time -f '%e %U %S' -o "$work/time" bash -c "$1" >/dev/null 2>&1 || true
	tail -1 "$work/time" | awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# banner: the first line of every report (the version, the machine, the load)
banner() {
	echo "boids $("$BOIDS" --version | head -1 | cut -d' ' -f2) on $(nproc) cores, $(date -u +%Y-%m-%d), median of $REPS;" \
		"load average $(load) at the start"
}

# alone NAME ROWS: with BENCH_ONLY=NAME, runs the function ROWS (one section)
# alone, between the banner and the closing load, and exits
alone() {
	[ "${BENCH_ONLY:-}" = "$1" ] || return 0
	banner
	mkdir -p out
	"$2"
	echo "load average $(load) at the end"
	exit 0
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

verdict() { [ "$(echo "$1 <= $2" | bc -l)" = 1 ] && echo met || echo MISSED; }

# ratio NAME TARGET "BOIDS CMD" "BASELINE CMD" (TARGET - for none): the wall
# and CPU ratios of the medians; leaves the wall medians in last_a and last_b
ratio() {
	local name=$1 target=$2 aw=() ac=() bw=() bc=() t
	for ((i = 0; i < REPS; i++)); do
		rm -rf out; mkdir out
		t=$(time_cmd "$3"); aw+=("${t% *}"); ac+=("${t#* }")
		rm -rf out; mkdir out
		t=$(time_cmd "$4"); bw+=("${t% *}"); bc+=("${t#* }")
	done
	local ma mb ca cb r rc
	ma=$(median "${aw[@]}") mb=$(median "${bw[@]}")
	ca=$(median "${ac[@]}") cb=$(median "${bc[@]}")
	r=$(echo "$ma / $mb" | bc -l) rc=$(echo "$ca / $cb" | bc -l)
	printf '  %-44s %7.3f s / %7.3f s = x%.3f wall, CPU %7.3f s / %7.3f s = x%.3f' \
		"$name" "$ma" "$mb" "$r" "$ca" "$cb" "$rc"
	if [ "$target" = - ]; then
		echo
	else
		echo "  (target <= $target: wall $(verdict "$r" "$target"), CPU $(verdict "$rc" "$target"))"
	fi
	last_a=$ma last_b=$mb
}

# sweep_row: section 10, a sweep of SWEEP_POINTS points (a grid of about
# sqrt(N) align-weights x seeds), then GNU parallel alone on its configs
sweep_row() {
	local n=${SWEEP_POINTS:-10000} a b w t jobs sw_wall sw_cpu
	[ -n "$QUICK" ] && [ -z "${SWEEP_POINTS:-}" ] && n=1000
	a=$(awk -v n="$n" 'BEGIN { a = int(sqrt(n)); while (n % a) a--; print a }')
	b=$((n / a))
	w=$(seq 1 "$a" | awk '{ printf "%s%g", (NR > 1 ? "," : ""), $1 / 1000 }')
	jobs=$(nproc)
	echo "a sweep end to end, $n points ($a align-weights x $b seeds) of one --no-render frame, $jobs at a time:"
	rm -rf sw
	t=$(time_cmd "python3 '$SCRIPTS/sweep' --bin '$BOIDS' --out sw --progress json -j $jobs \
		--grid 'align-weight=$w' --grid 'seed=$(seq -s, 1 "$b")' --frames 1 --boids 20 --threads 1 \
		-- --no-render 2>phases.jsonl")
	sw_wall=${t% *} sw_cpu=${t#* }
	if ! grep -q '"event": "phases"' phases.jsonl; then
		echo "  the sweep failed:"; tail -3 phases.jsonl; return
	fi
	python3 - "$n" "$sw_wall" "$sw_cpu" <<'EOF'
import json, sys
n, wall, cpu = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
ph = [json.loads(l) for l in open("phases.jsonl") if '"phases"' in l][-1]
total = ph.pop("total")
ph.pop("event")
print(f"  {'scripts/sweep, from nothing to the report':44s} {wall:7.1f} s wall, {cpu:7.1f} s CPU, "
      f"{1000 * wall / n:.2f} ms a point")
for k, v in ph.items():
    print(f"    {k:42s} {v:7.1f} s  {100 * v / total:5.1f}%  {1000 * v / n:8.3f} ms a point")
EOF
	t=$(time_cmd "cd sw && seq 0 $((n - 1)) | parallel --will-cite -j $jobs '$BOIDS --config cfg/{}.cfg 2>/dev/null'")
	printf '  %-44s %7.1f s wall, %7.1f s CPU: the sweep takes x%.2f wall, x%.2f CPU\n' \
		"GNU parallel running the same boids commands" "${t% *}" "${t#* }" \
		"$(echo "$sw_wall / ${t% *}" | bc -l)" "$(echo "$sw_cpu / ${t#* }" | bc -l)"
	rm -rf sw phases.jsonl
}
alone sweep sweep_row

# Section 11 (see the top): processes and the sweep's set-up.
setup_rows() {
	local runs=200 t1 t0 i
	echo "processes: $runs one-frame --no-render runs / $runs runs of /bin/true:"
	ratio "one-frame --no-render runs" - \
		"for i in \$(seq $runs); do '$BOIDS' -q -f 1 --no-render; done" \
		"for i in \$(seq $runs); do /bin/true; done"
	t1=$(time_cmd "for i in \$(seq $runs); do '$BOIDS' -q -f 1 --no-render; done")
	t0=$(time_cmd "for i in \$(seq $runs); do /bin/true; done")
	local ms
	ms=$(echo "(${t1#* } - ${t0#* }) * 1000 / $runs" | bc -l)
	printf '  %-44s %7.2f ms of CPU a run above an empty process  (target <= 10: %s)\n' "" \
		"$ms" "$(verdict "$ms" 10)"
	# what a run that needs a plugin pays for loading it: HDF5 (libhdf5 and what it brings)
	t1=$(time_cmd "for i in \$(seq $runs); do '$BOIDS' -q -y -f 1 -n 10 --no-render --trajectory t.h5; done")
	t0=$(time_cmd "for i in \$(seq $runs); do '$BOIDS' -q -y -f 1 -n 10 --no-render --trajectory t.csv; done")
	printf '  %-44s %7.2f ms of CPU a run more than writing .csv (the HDF5 plugin loaded)\n' \
		"one-frame runs writing a 10-boid .h5" "$(echo "(${t1#* } - ${t0#* }) * 1000 / $runs" | bc -l)"
	rm -f t.h5 t.csv
	local sweep here n pts wall cpu per10 peak
	here=$(cd "$(dirname "$BOIDS")/.." && pwd)
	sweep="$here/scripts/sweep"
	echo "sweep set-up, one-frame --no-render points (--slurm --no-submit: configs, grid, job scripts):"
	for n in 10000 100000; do
		[ -n "$QUICK" ] && [ "$n" = 100000 ] && continue
		pts=$((n / 100))
		rm -rf "s$n"
		/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$sweep" --bin "$BOIDS" --out "s$n" --slurm --no-submit \
			--grid "seed=$(seq -s, 1 100)" --grid "align-weight=$(seq -s, 1 $pts)" -- -f 1 --no-render \
			>/dev/null 2>&1 || echo "  (sweep failed)"
		read -r wall u s peak < <(tail -1 "$work/time")
		cpu=$(echo "$u + $s" | bc -l)
		# the CPU verdict too: under other load the wall clock measures the load
		printf '  %-44s %7.2f s wall, CPU %7.2f s, %6.1f us a point, peak %5.1f MB  (target <= %s s: wall %s, CPU %s)\n' \
			"$n points" "$wall" "$cpu" "$(echo "$wall * 1000000 / $n" | bc -l)" "$(echo "$peak / 1024" | bc -l)" \
			"$((n / 2000))" "$(verdict "$wall" "$((n / 2000))")" "$(verdict "$cpu" "$((n / 2000))")"
		[ "$n" = 10000 ] && per10=$(echo "$wall / $n" | bc -l)
		[ "$n" = 100000 ] && printf '  %-44s x%.2f (linear: x1)\n' "time a point, 100,000 / 10,000" \
			"$(echo "($wall / $n) / $per10" | bc -l)"
		t=$(time_cmd "'$sweep' --out s$n --task $((n - 1))")
		printf '  %-44s %7.3f s wall\n' "--task on the last point of $n" "${t% *}"
	done
	rm -rf s10000 s100000
}
alone setup setup_rows

# Section 13 (see the top): the ABM frameworks comparison's Flocking beside
# MASON, the comparison's own Java program, compiled here into a temporary
# directory from MASON_DIR (default ../shared/peers/mason beside the
# checkout: mason.22.jar and the four .java files; never copied into the
# repository).  Like for like, the steps alone: MASON's JobTime (the
# comparison's measure: the wall time of K steps from the start, after the
# JVM started and the model was built; the median of its -repeat runs)
# against the wall time of the same K steps of `boids -m abm` from its
# start, timed in-process by bench_sim --abm (its CPU too, which agrees
# with a run of 1 + K frames minus a run of 1, shown for 1000 steps),
# alternating; then whole processes from the shell, and the JVM's start
# alone.  BENCH_ONLY=abm runs this part alone.
abm_rows() {
	local here dir jar m i t
	here=$(cd "$(dirname "$BOIDS")/.." && pwd)
	dir=${MASON_DIR:-$here/../shared/peers/mason}
	jar=$dir/mason.22.jar
	echo "the ABM frameworks' Flocking (-m abm) beside MASON 22 (its comparison's Java program):"
	if [ ! -f "$jar" ] || [ ! -f "$dir/Flocking_small.java" ]; then
		echo "  skipped: no MASON in '$dir' (mason.22.jar and the comparison's .java files; set MASON_DIR)"
		return 0
	fi
	if ! command -v javac >/dev/null || ! command -v java >/dev/null; then
		echo "  skipped: no java/javac (scripts/install-deps.sh bench: default-jdk-headless)"
		return 0
	fi
	m=$work/mason
	mkdir -p "$m"
	cp "$dir"/Flocking_small.java "$dir"/Flocker_small.java "$dir"/Flocking_large.java "$dir"/Flocker_large.java "$m"/
	# the FLAME GPU fork's 80,000 birds in 400x400 (vision 5), and 1M at that density: the
	# small program with those numbers, made here
	abm_java 80k 400.0 80000
	abm_java 1m 1414.2135623730951 1000000
	if ! (cd "$m" && javac -cp ".:$jar" ./*.java) >"$work/javac.log" 2>&1; then
		echo "  skipped: javac failed: $(head -1 "$work/javac.log")"
		return 0
	fi
	local big=10 bigreps=$REPS huge=2
	[ -n "$QUICK" ] && big=3 huge=1
	printf '  %-44s %12s %12s %9s\n' "steps from the start, wall ms per 100 steps" "MASON" "boids" "MASON/boids"
	abm_row small 100 20 "$REPS" "200 birds in 100x100, vision 5: 100 steps"
	abm_row large 100 20 "$REPS" "400 birds in 150x150, vision 15: 100 steps"
	abm_row 80k "$big" 1 "$bigreps" "80,000 in 400x400, vision 5: $big steps"
	abm_row 1m "$huge" 1 1 "1M in 1414x1414, vision 5: $huge steps"
	echo "  targets: boids >= x10 MASON at small and large (met: ${abm_met[small]:-?}, ${abm_met[large]:-?}), >= x20 at"
	echo "  80,000 birds (${abm_met[80k]:-?})"
	# the in-process timer against the processes' CPU, 1000 steps of each version
	local opt size a b c
	for size in small large; do
		opt=; [ $size = large ] && opt="--abm-size large"
		# shellcheck disable=SC2086 # the options, split on purpose
		a=$(cpu_us "$BOIDS" -q -m abm $opt -f 1001 --no-render --threads 1)
		# shellcheck disable=SC2086
		b=$(cpu_us "$BOIDS" -q -m abm $opt -f 1 --no-render --threads 1)
		c=$("$BENCH_SIM" --abm $size 1000 1)
		printf '  %-44s %9.3f ms in-process, %9.3f ms by processes\n' "$size, 1000 steps, CPU ms per 100 steps" \
			"${c#* }" "$(echo "($a - $b) / 10000" | bc -l)"
	done
	# whole processes from the shell: 100 steps of the small version each, and the JVM's start
	local jw=() jc=() bw=() bc=() sw=() sc=()
	for ((i = 0; i < REPS; i++)); do
		t=$(wall_cpu java -cp "$m:$jar" Flocking_small -seed $((i + 1)) -for 100 -quiet)
		jw+=("${t% *}"); jc+=("${t#* }")
		t=$(wall_cpu "$BOIDS" -q -m abm -f 101 --no-render --threads 1 --seed $((i + 1)))
		bw+=("${t% *}"); bc+=("${t#* }")
		t=$(wall_cpu java -version)
		sw+=("${t% *}"); sc+=("${t#* }")
	done
	a=$(median "${jw[@]}") c=$(median "${bw[@]}") b=$(median "${sw[@]}")
	printf '  %-44s %8.4f s wall (CPU %.4f s)\n' "MASON, a whole process, 100 steps (small)" "$a" "$(median "${jc[@]}")"
	printf '  %-44s %8.4f s wall (CPU %.4f s)\n' "the JVM's start alone (java -version)" "$b" "$(median "${sc[@]}")"
	printf '  %-44s %8.4f s wall (CPU %.4f s)\n' "boids, a whole process, 100 steps (small)" "$c" "$(median "${bc[@]}")"
	printf '  %-44s x%.0f MASON'"'"'s whole process, x%.1f the JVM'"'"'s start (target > x1: %s)\n' \
		"a whole boids run is faster than" "$(echo "$a / $c" | bc -l)" "$(echo "$b / $c" | bc -l)" \
		"$([ "$(echo "$b > $c" | bc -l)" = 1 ] && echo met || echo MISSED)"
	echo "  the comparison's published ratios (time / Agents.jl's): Flocking-small Ark.jl 0.73, MASON 1.42,"
	echo "  NetLogo 15.37, Mesa 159.29; Flocking-large Ark.jl 0.36, MASON 0.61, NetLogo 19.14, Mesa 59.5"
}

# wall_cpu CMD...: "WALL CPU", the seconds CMD took and its CPU (user + system), to
# the microsecond (time's have hundredths: a whole boids run takes a few ms)
wall_cpu() {
	/usr/bin/python3 -c 'import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t = time.perf_counter() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f" % (t, r.ru_utime + r.ru_stime))' "$@"
}

# cpu_us CMD...: the CPU (user + system) CMD took, in microseconds (time's %U
# has hundredths: a 100-step run of the small flock takes a few of them)
cpu_us() {
	/usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round((r.ru_utime + r.ru_stime) * 1e6))' "$@"
}

# abm_java NAME SIDE BIRDS: Flocking_NAME.java and Flocker_NAME.java in $m, the small
# program with another space and flock (made at run time from the comparison's files)
abm_java() {
	sed -e "s/Flocking_small/Flocking_$1/g; s/Flocker_small/Flocker_$1/g" \
		-e "s/this.width = 100.0;/this.width = $2;/; s/this.height = 100.0;/this.height = $2;/" \
		-e "s/this.numFlockers = 200;/this.numFlockers = $3;/" "$m/Flocking_small.java" >"$m/Flocking_$1.java"
	sed -e "s/Flocking_small/Flocking_$1/g; s/Flocker_small/Flocker_$1/g" "$m/Flocker_small.java" >"$m/Flocker_$1.java"
}

# abm_row NAME STEPS REPEATS ROUNDS LABEL: ROUNDS times, alternating, MASON's JobTime for STEPS
# steps (REPEATS runs in a JVM: a wall time) and boids' in-process wall and CPU time for STEPS
# steps (REPEATS seeds), each as ms per 100 steps; the medians and the ratio of the wall
# times, which another load on the machine stretches alike (abm_met[NAME]: met or MISSED)
declare -A abm_met
abm_row() {
	local name=$1 steps=$2 rep=$3 rounds=$4 label=$5 i t c ms=() bs=() bc=() target=10
	[ "$name" = 80k ] && target=20
	for ((i = 0; i < rounds; i++)); do
		while read -r t; do ms+=("$(echo "$t / 1000000 * 100 / $steps" | bc -l)"); done < <(
			cd "$m" && java -cp ".:$jar" "Flocking_$name" -seed $((100 * i + 1)) -for "$steps" -repeat "$rep" \
				-quiet 2>/dev/null | sed -n 's/^JobTime: //p')
		while read -r t c; do bs+=("$t"); bc+=("$c"); done < <("$BENCH_SIM" --abm "$name" "$steps" "$rep")
	done
	if [ ${#ms[@]} = 0 ] || [ ${#bs[@]} = 0 ]; then
		printf '  %-44s failed (MASON %d times, boids %d)\n' "$label" ${#ms[@]} ${#bs[@]}
		return
	fi
	local a b r
	a=$(median "${ms[@]}") b=$(median "${bs[@]}")
	r=$(echo "$a / $b" | bc -l)
	abm_met[$name]=$([ "$(echo "$r >= $target" | bc -l)" = 1 ] && echo met || echo MISSED)
	printf '  %-44s %12.3f %12.3f %8.1fx   (boids CPU %.3f)\n' "$label" "$a" "$b" "$r" "$(median "${bc[@]}")"
}
alone abm abm_rows

# Section 14 (see the top): Vicsek's Fig. 2a at the paper's largest flock, N = 10,000 at
# rho = 4 (L = 50): v_a (the metrics' polarization, mean over the frames) against the
# noise, as docs/MODELS-FIELD.md's sweep gives it for 40 to 4000, and the time a point
# takes.  BENCH_ONLY=vicsek runs this part alone.
vicsek_rows() {
	local warm=5000 frames=100 eta t va
	[ -n "$QUICK" ] && warm=1000 frames=20
	echo "Vicsek et al.'s Fig. 2a at N = 10,000, rho = 4 (L = 50): v_a against the noise eta"
	echo "  ($warm steps to settle, then the mean over $frames frames 10 steps apart; seed 1):"
	for eta in 0 0.5 1 1.5 2 2.5 3 3.5 4 4.5 5; do
		t=$(time_cmd "'$BOIDS' -q -y -m vicsek -n 10000 --vicsek-density 4 --vicsek-noise $eta --warmup $warm \
			--substeps 10 --frames $frames --no-render --summary s.json")
		va=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["metrics"]["polarization"]["mean"])' s.json)
		printf '  eta %-4s v_a %.3f   %6.1f s wall, CPU %6.1f s (%.2f ms a step)\n' "$eta" "$va" "${t% *}" "${t#* }" \
			"$(echo "${t#* } * 1000 / ($warm + 10 * $frames)" | bc -l)"
	done
	rm -f s.json
}
alone vicsek vicsek_rows


# peak_kb ARGS...: the peak resident set of `boids ARGS`, in KiB
peak_kb() { /usr/bin/time -f %M -o rss "$BOIDS" -q -y "$@" >/dev/null 2>&1; tail -1 rss; }

# Section 7 (see the top): ten million boids at the default density (100 boids
# in 640x360), the field apart from the picture (--field): CPU a boid and step
# from whole runs, F frames less 1 frame (the start and the exit cancel out),
# against 10k boids at the same density, the two measured side by side in each
# of REPS pairs (the machine drifts by more than the difference: a 10k step
# moved x1.5 between hours on one quiet day), the median of the pairs' ratios;
# peak memory a boid; then the 10M-boid 3840x2160 clip drawn with --draw
# points, and the points' drawing rate alone.  BENCH_ONLY=ten runs this part alone.
ten_rows() {
	echo "ten million boids at the default density (100 in 640x360, --field), $REPS pairs:"
	local tenf=4 clipf=60 small=() big=() ratios=() t1 tf s b
	[ -n "$QUICK" ] && tenf=3 clipf=10
	# step_cpu N FIELD FRAMES: CPU seconds a boid and step, (run of FRAMES - run of 1) / (FRAMES - 1) / N
	step_cpu() {
		t1=$(time_cmd "'$BOIDS' -q --no-render -n $1 --field $2 -f 1")
		tf=$(time_cmd "'$BOIDS' -q --no-render -n $1 --field $2 -f $3")
		echo "(${tf#* } - ${t1#* }) / ($3 - 1) / $1" | bc -l
	}
	for ((i = 0; i < REPS; i++)); do
		s=$(step_cpu 10000 4800x4800 301)
		b=$(step_cpu 10000000 151800x151800 $tenf)
		small+=("$s") big+=("$b") ratios+=("$(echo "$b / $s" | bc -l)")
	done
	local r lo hi
	r=$(median "${ratios[@]}")
	lo=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1) hi=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)
	printf '  %-50s %.3f us / %.3f us, pairs x%.2f to x%.2f, median x%.2f  (target <= 1.5: %s)\n' \
		"CPU a boid and step, --no-render: 10M / 10k" "$(echo "$(median "${big[@]}") * 1000000" | bc -l)" \
		"$(echo "$(median "${small[@]}") * 1000000" | bc -l)" "$lo" "$hi" "$r" "$(verdict "$r" 1.5)"
	b=$(echo "$(peak_kb --no-render -n 10000000 --field 151800x151800 -f $tenf) * 1024 / 10000000" | bc -l)
	printf '  %-50s %6.1f bytes  (target <= 100: %s)\n' "peak memory a boid, 10M, --no-render" "$b" \
		"$(verdict "$b" 100)"
	/usr/bin/time -f '%e %U %S %M' -o clip.time "$BOIDS" -q -y -n 10000000 --field 151800x151800 \
		-s 3840x2160 --draw points -f $clipf -o out/ten.mp4 >/dev/null 2>&1 || true
	local cw cu cs cm
	read -r cw cu cs cm <clip.time
	printf '  %-50s %6.2f frames/s, CPU %.1f s a frame, peak %.0f MB (%.0f bytes a boid)\n' \
		"10M, 3840x2160, $clipf frames, --draw points, MP4" "$(echo "$clipf / $cw" | bc -l)" \
		"$(echo "($cu + $cs) / $clipf" | bc -l)" "$(echo "$cm / 1024" | bc -l)" "$(echo "$cm * 1024 / 10000000" | bc -l)"
	rm -f out/ten.mp4
	"$BENCH_SIM" ${QUICK:+--quick} --points
}
alone ten ten_rows

# Section 12 (see the top): pictures at every scale.  The zoomed frame's cost
# and the density frame's are measured around their calls by bench_sim
# (--zoom, --density): a whole run's drawing is a few per cent of its CPU,
# below the noise of whole runs on a shared machine.  BENCH_ONLY=view runs
# this part alone.
view_rows() {
	echo "pictures at every scale:"
	"$BENCH_SIM" ${QUICK:+--quick} --zoom | sed 's/^/  /'
	"$BENCH_SIM" ${QUICK:+--quick} --density | sed 's/^/  /'
	local cv="-n 50000 --field 14400x8100 -s 640x360 -f 1" look w c r
	for look in "--draw density --density-range 0.02,2" "--draw points"; do
		"$BOIDS" -q -y $cv --warmup 600 $look -o out/warm.y4m
		"$BOIDS" -q -y $cv $look -o out/cold.y4m
		w=$(python3 "$SCRIPTS/../tests/bench/block_cv.py" out/warm.y4m)
		c=$(python3 "$SCRIPTS/../tests/bench/block_cv.py" out/cold.y4m)
		r=$(echo "$w / $c" | bc -l)
		printf '  %-58s %.3f / %.3f = x%.2f%s\n' "50,000 boids, 600 warm-up / scattered, block CV, ${look%% --density-range*}" \
			"$w" "$c" "$r" "$([ "${look#--draw density}" != "$look" ] && echo "  (target >= 2: $(verdict 2 "$r"))")"
	done
}
alone view view_rows

# Section 9 (see the top): trajectories against the simulation alone.
# BENCH_ONLY=traj runs this part alone.
traj_rows() {
	local tn=100000 tfr=50 sim
	[ -n "$QUICK" ] && tfr=10
	echo "trajectories of $tn boids x $tfr frames at 16384x9216 (--no-render), against the simulation alone:"
	sim="'$BOIDS' -q -y --no-render -n $tn -s 16384x9216 -f $tfr"
	ratio "HDF5 (.h5, float64)" 1.25 "$sim --trajectory out/t.h5" "$sim"
	ratio "CSV (.csv)" 1.6 "$sim --trajectory out/t.csv" "$sim"
	ratio "HDF5, float32, shuffle + deflate 1" - \
		"$sim --trajectory out/t.h5 --trajectory-precision single --trajectory-compress 1" "$sim"
	ratio "zstd CSV (.csv.zst, level 3)" - "$sim --trajectory out/t.csv.zst" "$sim"
	ratio "gzip CSV (.csv.gz, level 1)" - "$sim --trajectory out/t.csv.gz --trajectory-compress 1" "$sim"
}
alone traj traj_rows

x264="-c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -threads 4 -movflags +faststart -flags +bitexact -fflags +bitexact"

banner
echo "end to end, boids / ffmpeg on the same frames:"
"$BOIDS" -q -y -o default.y4m
ratio "MP4, defaults (640x360, 100 boids, 300 fr)" 1.10 \
	"'$BOIDS' -q -y -o out/x.mp4" \
	"ffmpeg -v error -y -i default.y4m $x264 out/x.mp4"
ratio "  the same, --draw fast" 1.03 \
	"'$BOIDS' -q -y --draw fast -o out/x.mp4" \
	"ffmpeg -v error -y -i default.y4m $x264 out/x.mp4"

frames=300; [ -n "$QUICK" ] && frames=60
"$BOIDS" -q -y -o big.y4m -n 10000 -s 1920x1080 -f $frames
ratio "MP4, 10000 boids at 1920x1080 ($frames fr)" 1.6 \
	"'$BOIDS' -q -y -o out/x.mp4 -n 10000 -s 1920x1080 -f $frames" \
	"ffmpeg -v error -y -i big.y4m $x264 out/x.mp4"
ratio "  the same, --draw fast" 1.15 \
	"'$BOIDS' -q -y --draw fast -o out/x.mp4 -n 10000 -s 1920x1080 -f $frames" \
	"ffmpeg -v error -y -i big.y4m $x264 out/x.mp4"
rm -f big.y4m

# big scenes: boids (exact, fast) / ffmpeg on the same frames, and frames a second
bigf=10; [ -n "$QUICK" ] && bigf=4
for scene in "100000 1920x1080" "10000 3840x2160"; do
	set -- $scene
	"$BOIDS" -q -y -o big.y4m -n "$1" -s "$2" -f $bigf
	for mode in exact fast; do
		ratio "MP4, $1 boids at $2 ($bigf fr), $mode" - \
			"'$BOIDS' -q -y --draw $mode -o out/x.mp4 -n $1 -s $2 -f $bigf" \
			"ffmpeg -v error -y -i big.y4m $x264 out/x.mp4"
		printf '  %-44s %7.2f frames/s (ffmpeg alone %.2f)\n' "" \
			"$(echo "$bigf / $last_a" | bc -l)" "$(echo "$bigf / $last_b" | bc -l)"
	done
	rm -f big.y4m
done

ratio "PNG sequence, defaults" 1.0 \
	"'$BOIDS' -q -y -o 'out/f_%05d.png'" \
	"ffmpeg -v error -y -i default.y4m 'out/f_%05d.png'"

echo
"$BENCH_SIM" ${QUICK:+--quick} --scaling


echo
echo "peak memory of whole runs (MP4, --draw fast unless named):"
peak_row() { printf '  %-50s %6.1f MB\n' "$1" "$(echo "$(peak_kb "${@:2}") / 1024" | bc -l)"; }
peak_row "defaults, exact drawing" -o out/x.mp4
peak_row "defaults" --draw fast -o out/x.mp4
peak_row "10000 boids at 1920x1080, 30 frames" --draw fast -n 10000 -s 1920x1080 -f 30 -o out/x.mp4
peak_row "100000 boids at 1920x1080, $bigf frames" --draw fast -n 100000 -s 1920x1080 -f $bigf -o out/x.mp4
peak_row "10000 boids at 3840x2160, $bigf frames" --draw fast -n 10000 -s 3840x2160 -f $bigf -o out/x.mp4
short=300 long=3000; [ -n "$QUICK" ] && short=100 long=1000
for f in $short $long; do
	peak_row "defaults, $f frames" --draw fast -f $f -o out/x.mp4
done
for f in $short $long; do
	peak_row "1000 boids at 1920x1080, $f frames, y4m to /dev/null" --draw fast -n 1000 -s 1920x1080 -f $f -o -
done

echo
ten_rows

echo
tf=60; [ -n "$QUICK" ] && tf=20
echo "drawing throughput, 10000 boids at 1920x1080, $tf frames as y4m to /dev/null (no encoder):"
for mode in exact fast; do
	ratio "$mode: 1 thread / 2 threads" - \
		"'$BOIDS' -q -y --draw $mode -n 10000 -s 1920x1080 -f $tf --threads 1 -o - >/dev/null" \
		"'$BOIDS' -q -y --draw $mode -n 10000 -s 1920x1080 -f $tf --threads 2 -o - >/dev/null"
	printf '  %-44s %7.2f frames/s on 1 thread, %.2f on 2\n' "" \
		"$(echo "$tf / $last_a" | bc -l)" "$(echo "$tf / $last_b" | bc -l)"
done

# trajectories: the run writing one / the same run writing none (the writer
# thread keeps the simulation from waiting for the disk)
echo
traj_rows

# encoders side by side: ffmpeg's command line on the same y4m, each against the MP4 default
echo
cf=90; [ -n "$QUICK" ] && cf=30
"$BOIDS" -q -y -o codec.y4m -n 2000 -s 1920x1080 -f $cf
echo "encoders at 1920x1080 ($cf frames of 2000 boids from boids' y4m, 4 encoder threads): CPU and size"
echo "  against libx264 veryfast CRF 23 (the MP4 default), SSIM against the y4m"
# codec_row NAME EXT "ENCODER ARGS": one encode, its CPU, size and SSIM (frame n against frame n:
# both streams retimed to frame numbers, as WebM's and MP4's time bases differ)
codec_row() {
	local t cpu size ssim
	t=$(time_cmd "ffmpeg -v error -y -i codec.y4m -threads 4 $3 -pix_fmt yuv420p out/c.$2")
	cpu=${t#* }
	size=$(stat -c %s "out/c.$2")
	ssim=$(ffmpeg -hide_banner -i "out/c.$2" -i codec.y4m -lavfi \
		'[0:v]settb=1/30,setpts=N[a];[1:v]settb=1/30,setpts=N[b];[a][b]ssim' -f null - 2>&1 |
		sed -n 's/.*All:\([0-9.]*\).*/\1/p')
	if [ -z "${base_cpu:-}" ]; then base_cpu=$cpu base_size=$size; fi
	printf '  %-52s CPU x%.2f  size x%.2f  SSIM %s\n' "$1" "$(echo "$cpu / $base_cpu" | bc -l)" \
		"$(echo "$size / $base_size" | bc -l)" "${ssim:-?}"
}
rm -rf out; mkdir out
base_cpu=
codec_row "libx264 veryfast CRF 23 (MP4 default)" mp4 "-c:v libx264 -preset veryfast -crf 23"
codec_row "libx264 ultrafast CRF 23" mp4 "-c:v libx264 -preset ultrafast -crf 23"
codec_row "libx264 medium CRF 23" mp4 "-c:v libx264 -preset medium -crf 23"
codec_row "libx264 slow CRF 18 (--quality high)" mp4 "-c:v libx264 -preset slow -crf 18"
codec_row "libx265 medium CRF 28" mp4 "-c:v libx265 -crf 28 -x265-params log-level=none"
codec_row "libvpx-vp9 realtime cpu-used 6 CRF 41 (WebM default)" webm \
	"-c:v libvpx-vp9 -b:v 0 -crf 41 -deadline realtime -cpu-used 6 -row-mt 1"
encoders=$(ffmpeg -hide_banner -encoders 2>/dev/null)
if [[ $encoders == *libsvtav1* ]]; then
	codec_row "libsvtav1 preset 10 CRF 35" mp4 "-c:v libsvtav1 -preset 10 -crf 35"
fi
rm -f codec.y4m
echo
view_rows
echo
sweep_row
echo
setup_rows
echo
abm_rows
echo
vicsek_rows
echo
echo "load average $(load) at the end"
