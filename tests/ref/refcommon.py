"""Shared by the reference programs in tests/ref/: reads a boids trajectory
CSV (frame,id,x,y,vx,vy; the state each frame draws, as --init reads it),
re-advances every frame with the model's own step function and compares
with the next frame.  Standard library only.

Exit status: 0 when every boid of every frame agrees to the tolerance,
1 (with the first disagreement on stderr) otherwise, 2 on bad input."""
import argparse
import csv
import sys


def read_frames(path):
    frames = {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0] == "frame":
                continue
            k, i = int(row[0]), int(row[1])
            frames.setdefault(k, {})[i] = [float(v) for v in row[2:6]]
    out = []
    for k in sorted(frames):
        fr = frames[k]
        out.append([fr[i] for i in range(len(fr))])
    return out


def parser(doc):
    p = argparse.ArgumentParser(description=doc)
    p.add_argument("trajectory")
    p.add_argument("--size", default="640x360")
    p.add_argument("--substeps", type=int, default=1)
    p.add_argument("--warmup", type=int, default=0)
    p.add_argument("--update", default="sequential", choices=["sequential", "synchronous"])
    p.add_argument("--tolerance", type=float, default=1e-9)
    p.add_argument("--frames", type=int, default=0, help="at least this many frames must be checked")
    p.add_argument("--check-start", action="store_true",
                   help="frame 0 is the program's start state (no --warmup, no --init)")
    return p


def run(args, step, start=None):
    """step(boids, t) advances the list of [x, y, vx, vy] in place by one
    step; t is the number of steps taken before it.  start(i, boid), with
    --check-start, returns what is wrong with boid i of frame 0, or None."""
    args.width, args.height = (float(v) for v in args.size.split("x"))
    frames = read_frames(args.trajectory)
    if args.check_start and start and frames:
        for i, b in enumerate(frames[0]):
            why = start(i, b)
            if why:
                print("ref: frame 0 boid %d is not the program's start: %s" % (i, why), file=sys.stderr)
                return 1
    if len(frames) < 2 or len(frames) < args.frames:
        print("ref: %d frames in %s, need %d" % (len(frames), args.trajectory, max(2, args.frames)),
              file=sys.stderr)
        return 2
    worst = 0.0
    for k in range(len(frames) - 1):
        boids = [list(b) for b in frames[k]]
        for j in range(args.substeps):
            step(boids, args.warmup + k * args.substeps + j)
        for i, (got, want) in enumerate(zip(boids, frames[k + 1])):
            for c in range(4):
                d = abs(got[c] - want[c])
                if not d <= args.tolerance:
                    print("ref: frame %d boid %d %s: reference %.17g, boids %.17g (differ by %.3g)"
                          % (k + 1, i, "x y vx vy".split()[c], got[c], want[c], d), file=sys.stderr)
                    return 1
                worst = max(worst, d)
    print("ref: %d frames of %d boids re-advanced, largest difference %.3g"
          % (len(frames) - 1, len(frames[0]), worst))
    return 0
