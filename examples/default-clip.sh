#!/bin/sh
# The default clip: 10 seconds of the C# article's flock at 640x360, H.264.
# BOIDS names the binary (default: boids on PATH); QUICK=1 renders 3 frames.
set -eu
BOIDS=${BOIDS:-boids}
"$BOIDS" -y -o flock.mp4 ${QUICK:+--frames 3}
