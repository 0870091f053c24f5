#!/bin/sh
# A small GIF that loops forever, for a README: the 640x360 field drawn at
# half size (320x180) after 10 s of flocking, then 3 seconds at 30 fps.
# The README's GIF line is this command (tests/integration/gallery.c compares them).
# BOIDS names the binary (default: boids on PATH); QUICK=1 renders 3 frames.
set -eu
BOIDS=${BOIDS:-boids}
"$BOIDS" -o flock.gif --scale 0.5 --warmup 300 -f 90 -y ${QUICK:+-f 3}
