#!/bin/sh
# Regenerates the pictures in docs/ from the program itself (never by hand):
#   docs/frame.png         a frame of the default flock, for the README
#   docs/model-NAME.png    a thumbnail of each model, by the command README.md
#                          prints under it
#   docs/look-harden-windows.png  the C# program's window (--look original)
#   docs/frame3d.png       a 3D flock of 400 with the box's edges and floor
# Usage: scripts/docs-images.sh [path/to/boids]   (default: build/boids)
#        scripts/docs-images.sh --commands        the models' commands, as README.md prints them
# tests/test_docs_images.c checks that README.md prints these commands and
# that every picture has boids spread over it.
set -eu
cd "$(dirname "$0")/.."

# Each model after 300 steps (10 seconds), at half size: from its defaults,
# but processing with the calm flags (the listing as written races off and
# piles on the edges: README.md labels it).  A still is the last frame: of
# 20, so that opengl's 20-position tails are drawn.
model_args() {
	case "$1" in
	processing) echo "-m processing --proc-max-speed 3 --proc-max-force 5 --separation inverse" ;;
	*) echo "-m $1" ;;
	esac
}
model_command() {
	echo "boids $(model_args "$1") -f 20 --warmup 281 --scale 0.5 -o model-$1.png"
}
models="harden processing steering canvas opengl"
if [ "${1:-}" = "--commands" ]; then
	for m in $models; do model_command "$m"; done
	exit 0
fi

BOIDS=${1:-build/boids}
BOIDS="$(cd "$(dirname "$BOIDS")" && pwd)/$(basename "$BOIDS")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The default flock after 5 seconds.
"$BOIDS" -q -y -f 1 --warmup 150 -o "$tmp/frame_%d.png"
cp "$tmp/frame_0.png" docs/frame.png

for m in $models; do
	# shellcheck disable=SC2046 # the command's words split on purpose
	(cd "$tmp" && "$BOIDS" -q -y $(model_command "$m" | cut -d' ' -f2-))
	cp "$tmp/model-$m.png" "docs/model-$m.png"
done
# The C# program's first picture, as its window showed it.
"$BOIDS" -q -y --look original -f 1 -o "$tmp/win-%d.png"
cp "$tmp/win-0.png" docs/look-harden-windows.png
# 400 boids of the default model in 3D after 10 seconds, the box's edges and floor drawn.
"$BOIDS" -q -y --dims 3 -n 400 -f 1 --warmup 300 -o "$tmp/f3d_%d.png"
cp "$tmp/f3d_0.png" docs/frame3d.png
echo "docs-images: wrote docs/frame.png, docs/frame3d.png and docs/model-*.png"
