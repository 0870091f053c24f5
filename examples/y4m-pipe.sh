#!/bin/sh
# Frames for an external encoder: boids writes YUV4MPEG to standard output
# and ffmpeg (or x264, SVT-AV1, ...) reads it from standard input.
set -eu
BOIDS=${BOIDS:-boids}
"$BOIDS" -o - ${QUICK:+--frames 3} | ffmpeg -v error -y -f yuv4mpegpipe -i - -c:v ffv1 piped.mkv
