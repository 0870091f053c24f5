#!/bin/sh
# A small GIF that loops forever, for a README: 320x180, 3 seconds at 30 fps.
set -eu
BOIDS=${BOIDS:-boids}
if [ -n "${QUICK:-}" ]; then frames=3; else frames=90; fi
"$BOIDS" -y -o flock.gif --scale 0.5 --warmup 300 --frames "$frames"
