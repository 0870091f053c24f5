#!/bin/sh
# A PNG sequence, then a video made from it with ffmpeg.
set -eu
BOIDS=${BOIDS:-boids}
mkdir -p frames
if [ -n "${QUICK:-}" ]; then frames=3; else frames=60; fi
"$BOIDS" -y -o frames/f_%05d.png --frames "$frames"
ffmpeg -v error -y -framerate 30 -i frames/f_%05d.png -pix_fmt yuv420p from-png.mp4
