#!/bin/sh
# The wrap-around universe: boids leave one side and come back on the other.
set -eu
BOIDS=${BOIDS:-boids}
"$BOIDS" -y -o wrap.mp4 --edges wrap --boids 300 ${QUICK:+--frames 3}
