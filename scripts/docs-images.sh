#!/bin/sh
# Regenerates the pictures in docs/ from the program itself (never by hand),
# each by the command the README prints beside it: every `boids ... -o
# docs/NAME.png` in README.md (the gallery table's last row, the captions
# under docs/frame.png, docs/look-harden-windows.png and docs/frame3d.png)
# and in docs/MODELS-FIELD.md (the states' table, written from docs/: the
# same docs/NAME.png), run as written with -q -y added.
# docs/sweep-chart.png is scripts/chart's; docs/couzin-memory-*.png are
# scripts/hysteresis's (docs/MODELS-FIELD.md gives the command).
# Usage: scripts/docs-images.sh [path/to/boids [OUTDIR]]
#   (default: build/boids, writing into docs/; another OUTDIR gets the same
#   names, for a test to compare with the committed pictures)
set -eu
# paths given are the caller's; the defaults are the checkout's
here=$(pwd)
cd "$(dirname "$0")/.."
BOIDS=${1:-build/boids}
OUT=${2:-docs}
case $BOIDS in /*|build/boids) ;; */*) BOIDS=$here/$BOIDS ;; esac
case $OUT in /*) ;; *) [ $# -ge 2 ] && OUT=$here/$OUT ;; esac
mkdir -p "$OUT"
cmds=$(grep -ho '`boids [^`]* -o docs/[a-z0-9-]*\.png`' README.md docs/MODELS-FIELD.md | tr -d '`')
if [ -z "$cmds" ]; then
	echo "docs-images: no \`boids ... -o docs/NAME.png\` command in README.md" >&2
	exit 1
fi
echo "$cmds" | while IFS= read -r cmd; do
	case $cmd in
	*[\'\"\$\;\&\|\<\>\(\)\\]*)
		echo "docs-images: not a plain command: $cmd" >&2
		exit 1 ;;
	esac
	# shellcheck disable=SC2086 # words of a plain command, split on purpose
	set -- $cmd
	shift # boids
	args=""
	while [ $# -gt 0 ]; do
		case $1 in
		docs/*.png) args="$args $OUT/${1#docs/}" ;;
		*) args="$args $1" ;;
		esac
		shift
	done
	# shellcheck disable=SC2086
	"$BOIDS" -q -y $args
	echo "docs-images: $cmd"
done
