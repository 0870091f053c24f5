"""Shared by the reference programs in tests/ref/: reads a boids trajectory
CSV -- 2D, frame,id,x,y,vx,vy, or 3D, frame,id,x,y,vx,vy,z,vz; columns are
found by their header names; the state each frame draws, as --init reads
it -- re-advances every frame with the model's own step function and
compares with the next frame.  Standard library only.

Every boid is [x, y, z, vx, vy, vz] inside, so each model is written once,
in 3D: a 2D file's boids sit at z = 0 with vz = 0, where every rule's z
component stays exactly 0 (sums of zeros), and only the 3D box has edges
on z (x, y on [0, W] x [0, H]; z on [0, D], D = --depth).

Exit status: 0 when every boid of every frame agrees to the tolerance,
1 (with the first disagreement on stderr) otherwise, 2 on bad input."""
import argparse
import csv
import math
import sys

AXES = "x y z vx vy vz".split()
COLUMNS = {2: "x y vx vy".split(), 3: "x y z vx vy vz".split()}


class BadInput(Exception):
    """What is wrong with the trajectory file (exit 2)."""


def read_frames(path):
    """Returns (dims, frames): frames[k][i] = [x, y, z, vx, vy, vz] of boid i
    at frame k, in frame order; dims is 3 when the header has z and vz."""
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows, None) or []
        col = {name: i for i, name in enumerate(header)}
        dims = 3 if "z" in col or "vz" in col else 2
        for name in ["frame", "id"] + COLUMNS[dims]:
            if name not in col:
                raise BadInput("%s: no column %s in the header (want frame,id and %s)"
                               % (path, name, " ".join(COLUMNS[dims])))
        pick = [col[a] if a in col else None for a in AXES]
        frames = {}
        for n, row in enumerate(rows, 2):
            if not row:
                continue
            try:
                k, i = int(row[col["frame"]]), int(row[col["id"]])
                frames.setdefault(k, {})[i] = [float(row[c]) if c is not None else 0.0 for c in pick]
            except (ValueError, IndexError):
                raise BadInput("%s:%d: not a row of numbers with every column" % (path, n))
    out = []
    for k in sorted(frames):
        fr = frames[k]
        if sorted(fr) != list(range(len(fr))):
            raise BadInput("%s: frame %d does not hold boids 0 to %d" % (path, k, len(fr) - 1))
        out.append([fr[i] for i in range(len(fr))])
    return dims, out


def parser(doc):
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trajectory", nargs="?")
    p.add_argument("--size", default="640x360")
    p.add_argument("--depth", type=float, default=None,
                   help="the box's third side (default: the smaller of width and height)")
    p.add_argument("--dims", type=int, choices=[2, 3], default=None,
                   help="the file must have this many (default: whichever it has)")
    p.add_argument("--substeps", type=int, default=1)
    p.add_argument("--warmup", type=int, default=0)
    p.add_argument("--update", default="sequential", choices=["sequential", "synchronous"])
    p.add_argument("--tolerance", type=float, default=1e-9)
    p.add_argument("--frames", type=int, default=0, help="at least this many frames must be checked")
    p.add_argument("--check-start", action="store_true",
                   help="frame 0 is the program's start state (no --warmup, no --init)")
    p.add_argument("--self-test", action="store_true",
                   help="check the step on hand-computed cases instead of a trajectory")
    return p


def setup(args):
    """Fills in args.width, args.height, args.depth from --size and --depth."""
    args.width, args.height = (float(v) for v in args.size.split("x"))
    if args.depth is None:
        args.depth = min(args.width, args.height)


def run(args, step, start=None, self_test=None):
    """step(boids, t) advances the list of [x, y, z, vx, vy, vz] in place by
    one step; t is the number of steps taken before it; args.dims says
    whether the box has a z side.  start(i, boid), with --check-start,
    returns what is wrong with boid i of frame 0, or None.  self_test(),
    with --self-test, returns a list of failures (empty when all pass)."""
    setup(args)
    if args.self_test:
        if not self_test:
            print("ref: no self-test here", file=sys.stderr)
            return 2
        fails = self_test()
        for why in fails:
            print("ref: self-test: %s" % why, file=sys.stderr)
        if not fails:
            print("ref: self-test passed")
        return 1 if fails else 0
    if not args.trajectory:
        print("ref: a trajectory file is needed (or --self-test)", file=sys.stderr)
        return 2
    try:
        dims, frames = read_frames(args.trajectory)
    except (OSError, BadInput) as e:
        print("ref: %s" % e, file=sys.stderr)
        return 2
    if args.dims is not None and args.dims != dims:
        print("ref: %s has %dD columns (%s), --dims %d given"
              % (args.trajectory, dims, " ".join(COLUMNS[dims]), args.dims), file=sys.stderr)
        return 2
    args.dims = dims
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
    compared = [AXES.index(a) for a in COLUMNS[dims]]
    worst = 0.0
    for k in range(len(frames) - 1):
        boids = [list(b) for b in frames[k]]
        for j in range(args.substeps):
            step(boids, args.warmup + k * args.substeps + j)
        for i, (got, want) in enumerate(zip(boids, frames[k + 1])):
            for c in compared:
                d = abs(got[c] - want[c])
                if not d <= args.tolerance:
                    print("ref: frame %d boid %d %s: reference %.17g, boids %.17g (differ by %.3g)"
                          % (k + 1, i, AXES[c], got[c], want[c], d), file=sys.stderr)
                    return 1
                worst = max(worst, d)
    print("ref: %d frames of %d boids in %dD re-advanced, largest difference %.3g"
          % (len(frames) - 1, len(frames[0]), dims, worst))
    return 0


def edges(args):
    """The sides of the space, one per axis the boids move on: (W, H) in 2D,
    (W, H, D) in the 3D box."""
    return (args.width, args.height, args.depth)[:args.dims]


def wrap_to_edge(args, p):
    """Processing's and the canvas page's wrap: a position past a side lands
    exactly on the opposite one (x < 0 -> W, x > W -> 0; y, and z in the box)."""
    for c, side in enumerate(edges(args)):
        if p[c] < 0:
            p[c] = side
        elif p[c] > side:
            p[c] = 0.0
    return p


def outside_box(args, b):
    """What is wrong with a start position drawn as u*W, u*H (, u*D), or None."""
    for c, side in enumerate(edges(args)):
        if not 0 <= b[c] < side:
            return "%s = %.17g outside [0, %g)" % (AXES[c], b[c], side)
    return None


M64 = (1 << 64) - 1


def mix64(z):
    """SplitMix64's finaliser, on 64-bit integers."""
    z = (z + 0x9e3779b97f4a7c15) & M64
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def noise01(seed, step, key):
    """The models' keyed draws (docs/MODEL.md): mix64 chained over seed, step
    and key, its top 53 bits times 2^-53, a uniform double in [0, 1)."""
    return (mix64(mix64(mix64(seed) ^ step) ^ key) >> 11) * 2.0 ** -53


def torus_wrap(x, side):
    """x onto the circle [0, side): x - side floor(x / side), then + side
    below 0 and - side at side or above (rounding)."""
    if 0 <= x < side:
        return x
    x -= side * math.floor(x / side)
    if x < 0:
        x += side
    return x if x < side else x - side


def min_image(d, side):
    """The minimum image of an offset d on a circle of this side: d, or
    d -+ side when that is shorter."""
    if d > side / 2:
        return d - side
    if d < -side / 2:
        return d + side
    return d


def turns(seed, step, n):
    """A step's order of turns (docs/MODEL.md, "abm" and "netlogo"): Fisher
    and Yates's shuffle of 0 .. n-1, for i = n-1 down to 1 swapping places i
    and floor(u (i + 1)) (at most i), u = noise01(seed, step, 2^62 + i)."""
    o = list(range(n))
    for i in range(n - 1, 0, -1):
        j = min(i, int(noise01(seed, step, (1 << 62) | i) * (i + 1)))
        o[i], o[j] = o[j], o[i]
    return o


def close(got, want, tol=1e-12):
    """True when the two vectors agree to tol in every component."""
    return len(got) == len(want) and all(abs(g - w) <= tol for g, w in zip(got, want))
