#!/bin/sh
# Regenerates the pictures in docs/ from the program itself (never by hand):
#   docs/frame.png         a frame of the default flock, for the README
#   docs/model-NAME.png    a thumbnail of each model from its defaults
#   docs/look-harden-windows.png  the C# program's window (--look original)
#   docs/frame3d.png       a 3D flock of 400 with the box's edges and floor
# Usage: scripts/docs-images.sh [path/to/boids]   (default: build/boids)
set -eu
cd "$(dirname "$0")/.."
BOIDS=${1:-build/boids}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The default flock after 5 seconds.
"$BOIDS" -q -y -f 1 --warmup 150 -o "$tmp/frame_%d.png"
cp "$tmp/frame_0.png" docs/frame.png

# Each model from its defaults alone, after 300 steps (10 seconds), at half size.
for m in harden processing steering canvas opengl; do
	# the last of 20 frames, so that opengl's 20-position tails are drawn
	"$BOIDS" -q -y -m "$m" -f 20 --warmup 281 --scale 0.5 -o "$tmp/$m-%02d.png"
	cp "$tmp/$m-19.png" "docs/model-$m.png"
done
# The C# program's first picture, as its window showed it.
"$BOIDS" -q -y --look original -f 1 -o "$tmp/win-%d.png"
cp "$tmp/win-0.png" docs/look-harden-windows.png
# 400 boids of the default model in 3D after 10 seconds, the box's edges and floor drawn.
"$BOIDS" -q -y --dims 3 -n 400 -f 1 --warmup 300 -o "$tmp/f3d_%d.png"
cp "$tmp/f3d_0.png" docs/frame3d.png
echo "docs-images: wrote docs/frame.png, docs/frame3d.png and docs/model-*.png"
