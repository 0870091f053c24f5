#!/bin/sh
# A small GIF that loops forever, for a README: 320x180, 3 seconds at 30 fps.
set -eu
BOIDS=${BOIDS:-boids}
"$BOIDS" -y -o flock.gif --size 320x180 --boids 60 --predators 2 --frames "${QUICK:+3}${QUICK:-90}"
