#!/usr/bin/env bash
# make bench: performance figures as ratios against baselines measured in the
# same run, side by side (the machines here are shared and noisy).
#
#   1. end to end to MP4: `boids -o x.mp4` / ffmpeg encoding the same frames
#      (dumped by boids as y4m) with the same codec settings;
#      at the defaults (target <= 1.05) and 10,000 boids at 1920x1080 (<= 1.25)
#   2. PNG sequence: `boids -o f_%05d.png` / ffmpeg writing the same frames
#      as PNGs from the y4m (target <= 1.0)
#   3. simulation ms per step and drawing cost (tests/bench/bench_sim.c)
#   4. the scaling table: every model x 1k, 10k, 100k, 1M boids at one
#      density, both update orders, 1 and 2 threads; a warning line when time
#      per boid grows more than 1.5x from 10k to 1M (bench_sim --scaling)
#   5. memory: bytes per boid of whole runs at 1M boids, simulation only and
#      drawing a video, as the peak above the same run with 1k boids
#
# Each timing is the median of REPS runs (default 3), the two commands of a
# ratio alternating so that a burst of noise hits both.
set -euo pipefail
BUILD=${BUILD:-build}
BOIDS=$(cd "$(dirname "$0")/.." && pwd)/$BUILD/boids
BENCH_SIM=$(cd "$(dirname "$0")/.." && pwd)/$BUILD/bench_sim
REPS=${REPS:-3}
QUICK=${QUICK:-}
work=$(mktemp -d /tmp/boids-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

now() { date +%s.%N; }

# time_cmd CMD...: seconds the command took
time_cmd() {
	local t0 t1
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	echo "$t1 - $t0" | bc -l
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# ratio NAME TARGET "BOIDS CMD" "BASELINE CMD"
ratio() {
	local name=$1 target=$2 a=() b=()
	for ((i = 0; i < REPS; i++)); do
		rm -rf out; mkdir out
		a+=("$(time_cmd bash -c "$3")")
		rm -rf out; mkdir out
		b+=("$(time_cmd bash -c "$4")")
	done
	local ma mb r verdict
	ma=$(median "${a[@]}")
	mb=$(median "${b[@]}")
	r=$(echo "$ma / $mb" | bc -l)
	verdict=$(echo "$r <= $target" | bc -l)
	printf '  %-44s %7.3f s / %7.3f s = x%.3f  (target <= %s: %s)\n' "$name" "$ma" "$mb" "$r" "$target" \
		"$([ "$verdict" = 1 ] && echo met || echo MISSED)"
}

x264="-c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -threads 4 -movflags +faststart -flags +bitexact -fflags +bitexact"

echo "boids $("$BOIDS" --version | cut -d' ' -f2) on $(nproc) cores, $(date -u +%Y-%m-%d), median of $REPS"
echo "end to end, boids / ffmpeg on the same frames:"
"$BOIDS" -q -y -o default.y4m
ratio "MP4, defaults (640x360, 100 boids, 300 fr)" 1.05 \
	"'$BOIDS' -q -y -o out/x.mp4" \
	"ffmpeg -v error -y -i default.y4m $x264 out/x.mp4"

frames=300; [ -n "$QUICK" ] && frames=60
"$BOIDS" -q -y -o big.y4m -n 10000 -s 1920x1080 -f $frames
ratio "MP4, 10000 boids at 1920x1080 ($frames fr)" 1.25 \
	"'$BOIDS' -q -y -o out/x.mp4 -n 10000 -s 1920x1080 -f $frames" \
	"ffmpeg -v error -y -i big.y4m $x264 out/x.mp4"

ratio "PNG sequence, defaults" 1.0 \
	"'$BOIDS' -q -y -o 'out/f_%05d.png'" \
	"ffmpeg -v error -y -i default.y4m 'out/f_%05d.png'"

echo
"$BENCH_SIM" ${QUICK:+--quick} --scaling

# peak_kb ARGS...: the peak resident set of `boids ARGS`, in KiB
peak_kb() { /usr/bin/time -f %M -o rss "$BOIDS" -q -y "$@" >/dev/null 2>&1; tail -1 rss; }

# per_boid NAME "ARGS AT 1M" "ARGS AT 1K": bytes per boid at 1M boids, the
# peak above the 1k run's (the same picture size, so frames cancel out)
per_boid() {
	local big small
	big=$(peak_kb -n 1000000 -s 16384x16384 $2)
	small=$(peak_kb -n 1000 -s 512x512 $3)
	printf '  %-50s %6.0f MB peak, %4.0f bytes a boid\n' "$1" "$(echo "$big / 1024" | bc -l)" \
		"$(echo "($big - $small) * 1024 / 999000" | bc -l)"
}

echo
echo "memory at 1M boids on 16384x16384 (bytes a boid: peak above a 1k run's, per boid):"
per_boid "simulation only (--no-render, 3 frames)" "--no-render -f 3" "--no-render -f 3"
per_boid "drawn to MP4, 2048x2048 picture (1 frame)" "--scale 0.125 -f 1 -o out/x.mp4" \
	"--scale 4 -f 1 -o out/x.mp4"
