#!/bin/sh
# A big flock at 1080p.  Two ways to fill a 1920x1080 picture:
#   big.mp4    10,000 boids on a 1920x1080 field (more space, more boids);
#   scaled.mp4 the default 640x360 flock drawn three times larger (--scale 3).
set -eu
BOIDS=${BOIDS:-boids}
"$BOIDS" -y -o big.mp4 --boids "${QUICK:+500}${QUICK:-10000}" --size 1920x1080 ${QUICK:+--frames 3}
"$BOIDS" -y -o scaled.mp4 --scale 3 ${QUICK:+--frames 3}
