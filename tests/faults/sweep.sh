#!/bin/sh
# Fault-injection sweep (make test-faults; docs/RELIABILITY.md).
#
#   tests/faults/sweep.sh BOIDS_FAULTS_BINARY KIND...
#
# For each kind of output, a short render runs once without faults, which
# gives the reference files and the number of allocations A and writes W
# boids makes (tests/faults/shim.c).  Then it runs A times with the Nth
# allocation failing and W times with the Nth write failing, and checks
# each run (the kinds: mp4 png y4m gif traj metrics summary, and config
# and init, which read a --config file and an --init trajectory; traj3d,
# metrics3d and init3d the same for a 3D flock; trajgz, trajzst and trajh5
# the compressed and HDF5 trajectories):
#   - exit 0 or 1, never a crash, a sanitizer report (exit 99) or exit 2;
#   - exit 1 comes with a message "boids: ...";
#   - every file under a final name is complete: byte for byte the
#     reference file (the summary's start and wall times aside);
#   - exit 0 left every reference file (a fault that hit nothing that
#     matters), and no temporary file is left in either case.
# ASan's leak check runs in every run.  Prints N covered per kind.
set -u
bin=$1
shift
[ -x "$bin" ] || { echo "sweep: no binary $bin" >&2; exit 1; }
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT INT TERM
export ASAN_OPTIONS=detect_leaks=1:exitcode=99:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
# Inputs of the kinds that read files: a config file and a trajectory.
printf '# a config\nseed = 7\nmax-speed = 5\n' >"$top/in.conf"
printf 'frame,id,x,y,vx,vy\n0,0,10,10,1,0\n0,1,20,12,0,1\n0,2,30,14,-1,0\n' >"$top/in.csv"
printf 'frame,id,x,y,vx,vy,z,vz\n0,0,10,10,1,0,5,1\n0,1,20,12,0,1,9,0\n0,2,30,14,-1,0,30,-1\n' >"$top/in3d.csv"
common="-q -f 3 -s 64x36 -n 8 --threads 1 --encoder-threads 1"

args_of() {
	case $1 in
	mp4) echo "-o v.mp4" ;;
	png) echo "-o f_%02d.png" ;;
	y4m) echo "-o v.y4m" ;;
	gif) echo "-o v.gif" ;;
	traj) echo "--no-render --trajectory t.csv" ;;
	metrics) echo "--no-render --metrics m.csv" ;;
	summary) echo "--no-render --summary s.json" ;;
	config) echo "--config $top/in.conf --no-render --summary s.json" ;;
	init) echo "--init $top/in.csv --no-render --trajectory t.csv" ;;
	traj3d) echo "--dims 3 --no-render --trajectory t.csv" ;;
	trajgz) echo "--no-render --trajectory t.csv.gz" ;;
	trajzst) echo "--no-render --trajectory t.csv.zst --trajectory-predator" ;;
	trajh5) echo "--no-render --trajectory t.h5" ;;
	metrics3d) echo "--dims 3 --no-render --metrics m.csv --summary s.json" ;;
	init3d) echo "--init $top/in3d.csv --no-render --trajectory t.csv --metrics m.csv" ;;
	*) echo "sweep: unknown kind $1" >&2; exit 1 ;;
	esac
}

# The files of a directory, one per line, hidden ones too.
files_in() { ls -A "$1" | LC_ALL=C sort; }

# Same contents?  The summary's start time and wall time differ from run
# to run.
same_file() {
	case $1 in
	*.json) [ "$(grep -v -e wall_time_s -e '"started"' "$1")" = \
	          "$(grep -v -e wall_time_s -e '"started"' "$2")" ] ;;
	*) cmp -s "$1" "$2" ;;
	esac
}

# A run that failed may leave a summary that says so (issue 15: every row
# says how it was made): complete, valid JSON with "status": "failed".
failed_summary() {
	case $1 in
	*.json) python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(0 if d.get("status") == "failed" else 1)' "$1" 2>/dev/null ;;
	*) return 1 ;;
	esac
}

failures=0
fail() {
	echo "FAIL $kind $mode=$n: $*" >&2
	sed 's/^/    /' "$dir.err" | head -n 5 >&2
	failures=$((failures + 1))
}

total=0
for kind in "$@"; do
	args=$(args_of "$kind") || exit 1
	ref=$top/$kind.ref
	mkdir "$ref"
	(cd "$ref" && BOIDS_FAULT_COUNT=$top/$kind.count "$bin" $common $args 2>"$top/$kind.referr")
	if [ $? -ne 0 ]; then
		echo "sweep: the reference run of $kind failed:" >&2
		cat "$top/$kind.referr" >&2
		exit 1
	fi
	nalloc=$(sed -n 's/^alloc //p' "$top/$kind.count")
	nwrite=$(sed -n 's/^write //p' "$top/$kind.count")
	reffiles=$(files_in "$ref")
	for mode in ALLOC WRITE; do
		if [ $mode = ALLOC ]; then count=$nalloc; else count=$nwrite; fi
		n=1
		while [ "$n" -le "$count" ]; do
			dir=$top/$kind.$mode.$n
			mkdir "$dir"
			(cd "$dir" && env BOIDS_FAIL_$mode=$n "$bin" $common $args >/dev/null 2>"$dir.err")
			rc=$?
			case $rc in
			0) ;;
			1) grep -q '^boids: ' "$dir.err" || fail "exit 1 without a message" ;;
			*) fail "exit $rc" ;;
			esac
			for f in $(files_in "$dir"); do
				case $f in
				.*) fail "temporary file $f left" ;;
				*) if [ ! -f "$ref/$f" ]; then fail "unexpected file $f"
				   elif [ $rc -eq 1 ] && failed_summary "$dir/$f"; then :
				   elif ! same_file "$dir/$f" "$ref/$f"; then fail "$f is not complete"; fi ;;
				esac
			done
			if [ $rc -eq 0 ] && [ "$(files_in "$dir")" != "$reffiles" ]; then
				fail "exit 0 but the files are $(files_in "$dir" | tr '\n' ' ')"
			fi
			rm -rf "$dir" "$dir.err"
			n=$((n + 1))
		done
	done
	echo "  FAULTS  $kind: $nalloc allocations, $nwrite writes failed one at a time"
	total=$((total + nalloc + nwrite))
done
if [ $failures -ne 0 ]; then
	echo "test-faults: $failures of $total runs FAILED" >&2
	exit 1
fi
echo "test-faults: $total runs, each fault handled (exit 0 or 1, no crash, no leak, no incomplete file)"
