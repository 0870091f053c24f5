#!/usr/bin/env python3
"""Rewrites a 2D boids trajectory (frame,id,x,y,vx,vy) as a 3D one
(frame,id,x,y,vx,vy,z,vz) on stdout, for checking the 3D references
against boids' 2D runs before boids has a 3D step of its own:

- the plane (default): every boid at z = D/2 with vz = 0, the contract's
  plane test (docs/MODEL.md, "3D"): a 3D step must leave z, vz alone and give the 2D
  x, y, vx, vy;
- --tilt: the whole run turned by a fixed rotation R (40 degrees about
  the axis (1, 2, 3)) about the field's centre, (W/2, H/2) going to the
  box's centre (W/2, H/2, D/2): p' = c + R (p - c), v' = R v.  Every rule
  that is the same in every direction (distances, means, unit vectors,
  lengths, RotateTowards the short way, a target at the centre) gives the
  turned run, now moving in all three axes; edges, wraps, start boxes and
  the "+angle" tie-break of reversed turns are not, so the run must keep
  off the sides (a big field, --edges none, a start from --init).

Standard library only; exit 2 on a file that is not a 2D trajectory."""
import argparse
import csv
import math
import sys


def rotation(axis, degrees):
    """The rotation matrix about `axis` by `degrees` (Rodrigues)."""
    n = math.sqrt(sum(c * c for c in axis))
    x, y, z = (c / n for c in axis)
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    t = 1 - c
    return [[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c]]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trajectory")
    p.add_argument("--size", default="640x360")
    p.add_argument("--depth", type=float, default=None, help="default: the smaller of width and height")
    p.add_argument("--tilt", action="store_true", help="turn the run out of the plane")
    a = p.parse_args()
    w, h = (float(v) for v in a.size.split("x"))
    d = min(w, h) if a.depth is None else a.depth
    R = rotation((1, 2, 3), 40)
    c = (w / 2, h / 2, d / 2)
    out = csv.writer(sys.stdout, lineterminator="\n")
    with open(a.trajectory, newline="") as f:
        rows = csv.reader(f)
        header = next(rows, None)
        if header != "frame,id,x,y,vx,vy".split(","):
            print("lift: %s: not a 2D trajectory (header %r)" % (a.trajectory, header), file=sys.stderr)
            return 2
        out.writerow(header + ["z", "vz"])
        for row in rows:
            if not a.tilt:  # the 2D columns as they are, to the last digit
                out.writerow(row[:6] + ["%.17g" % (d / 2), "0"])
                continue
            x, y, vx, vy = (float(v) for v in row[2:6])
            pos = [c[i] + R[i][0] * (x - c[0]) + R[i][1] * (y - c[1]) for i in range(3)]
            vel = [R[i][0] * vx + R[i][1] * vy for i in range(3)]
            out.writerow(row[:2] + ["%.17g" % v for v in (pos[0], pos[1], vel[0], vel[1], pos[2], vel[2])])
    return 0


if __name__ == "__main__":
    sys.exit(main())
