#!/bin/sh
# A web page with the demo clip and its poster, for CI to publish (GitHub
# Pages, GitLab Pages) or attach to a release: public/index.html,
# public/flock.mp4 (H.264, plays in every browser), public/flock.webm and
# public/poster.png (the first frame, shown before the clip plays), each
# after a 10 s warm-up (--warmup 300) so that the clip opens on a flock.
# BOIDS names the binary (default: boids on PATH); QUICK=1 renders 3 frames.
# CLIP names the MP4 `make demo` wrote (flock.mp4: these settings, the
# defaults after --warmup 300), published as it is instead of rendered again.
# The poster is the clip's first frame: one frame after the same warm-up.
set -eu
BOIDS=${BOIDS:-boids}
OUT=${OUT:-public}
if [ -n "${QUICK:-}" ]; then frames=3; else frames=300; fi
mkdir -p "$OUT"
if [ -n "${CLIP:-}" ]; then
	cp "$CLIP" "$OUT/flock.mp4"
else
	"$BOIDS" -q -y -o "$OUT/flock.mp4" --warmup 300 --frames "$frames"
fi
"$BOIDS" -q -y -o "$OUT/flock.webm" --warmup 300 --frames "$frames"
"$BOIDS" -q -y -o "$OUT/poster.png" --warmup 300 --frames 1
cat > "$OUT/index.html" <<'HTML'
<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>boids: the demo clip</title>
<h1>boids</h1>
<video controls loop muted autoplay playsinline poster="poster.png" width="640" height="360">
  <source src="flock.webm" type="video/webm">
  <source src="flock.mp4" type="video/mp4">
</video>
<p>Rendered by <code>boids --warmup 300</code>: its defaults (100 boids, 640x360, 30 fps) after 10 s of flocking.
HTML
