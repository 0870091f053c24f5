#!/bin/sh
# A big flock at 1080p.  Two ways to fill a 1920x1080 picture:
#   big.mp4    10,000 boids on a 1920x1080 field (more space, more boids);
#   scaled.mp4 the default 640x360 flock drawn three times larger (--scale 3).
# BOIDS names the binary (default: boids on PATH); QUICK=1: 500 boids, 3 frames.
set -eu
BOIDS=${BOIDS:-boids}
if [ -n "${QUICK:-}" ]; then n=500; frames=3; else n=10000; frames=300; fi
"$BOIDS" -y -o big.mp4 --boids "$n" --size 1920x1080 --frames "$frames"
"$BOIDS" -y -o scaled.mp4 --scale 3 --frames "$frames"
