#!/usr/bin/env python3
"""Kakehi's "Boids ... in Processing", from its Java listings:
neighbours of each rule are the other boids within its range (<=);
cohesion() = normalize(mean position - pos); separation() = normalize(sum
of PVector.div(towardsMe.normalize(), towardsMe.mag())) over towardsMe.mag()
> 0 -- normalize() works in place, so mag() is 1 then: a sum of unit
vectors (--separation inverse divides by the distance instead);
alignment() = normalize(sum of v).  acceleration = weighted sum; velocity +=
acceleration; position += velocity (the pseudo-code), optional limits as
PVector.limit() or per component; wrap to the other edge.  Boids are
updated in order, position included.

In 3D (a file with z, vz columns; docs/MODEL.md, "3D") the same
listing with vectors of three: distances, normalize(), limit() (or the
clamp of each component, z too) and the wrap to the other edge on z
(z < 0 -> D, z > D -> 0).  The 3D start is the C# scatter with six draws:
x = uW, y = uH, z = uD, v = u - .5 each.  Checks a boids trajectory."""
import math
import sys

import refcommon


def mag(v):
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def normalize(v):
    """PVector.normalize(): divide by the magnitude unless it is 0."""
    m = mag(v)
    return [x / m for x in v] if m != 0 else list(v)


def limit(v, m, components):
    if m <= 0:
        return v
    if components:
        return [min(max(x, -m), m) for x in v]
    n = mag(v)
    return [x / n * m for x in v] if n > m else v


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--proc-cohesion-radius", type=float, default=40)
    p.add_argument("--proc-separation-radius", type=float, default=10)
    p.add_argument("--proc-alignment-radius", type=float, default=40)
    p.add_argument("--proc-cohesion-weight", type=float, default=.5)
    p.add_argument("--proc-separation-weight", type=float, default=4)
    p.add_argument("--proc-alignment-weight", type=float, default=4)
    p.add_argument("--proc-max-force", type=float, default=0)
    p.add_argument("--proc-max-speed", type=float, default=0)
    p.add_argument("--proc-limit", default="length", choices=["length", "components"])
    p.add_argument("--separation", default="unit", choices=["unit", "inverse"])
    a = p.parse_args()
    comp = a.proc_limit == "components"

    def step(boids, t):
        src = boids if a.update == "sequential" else [list(b) for b in boids]
        for bi, b in enumerate(boids):
            me = src[bi]
            dist = [math.sqrt((o[0] - me[0]) ** 2 + (o[1] - me[1]) ** 2 + (o[2] - me[2]) ** 2)
                    for o in src]
            def near(r):
                return [o for oi, o in enumerate(src) if oi != bi and dist[oi] <= r]
            nb = near(a.proc_cohesion_radius)
            coh = [0.0, 0.0, 0.0]
            if nb:
                coh = normalize([sum(o[c] for o in nb) / len(nb) - me[c] for c in range(3)])
            sep = [0.0, 0.0, 0.0]
            for o in near(a.proc_separation_radius):
                towards = [me[c] - o[c] for c in range(3)]
                d = mag(towards)
                if d > 0:
                    u = normalize(towards)
                    div = d if a.separation == "inverse" else 1.0
                    sep = [sep[c] + u[c] / div for c in range(3)]
            sep = normalize(sep)
            ali = [0.0, 0.0, 0.0]
            for o in near(a.proc_alignment_radius):
                ali = [ali[c] + o[3 + c] for c in range(3)]
            ali = normalize(ali)
            acc = [coh[c] * a.proc_cohesion_weight + sep[c] * a.proc_separation_weight +
                   ali[c] * a.proc_alignment_weight for c in range(3)]
            acc = limit(acc, a.proc_max_force, comp)
            v = limit([me[3 + c] + acc[c] for c in range(3)], a.proc_max_speed, comp)
            p = [me[c] + v[c] for c in range(3)]
            b[:] = refcommon.wrap_to_edge(a, p) + v

    def start(i, b):
        # the listing's Setup gives no start; boids starts it as the C# does
        why = refcommon.outside_box(a, b)
        if why:
            return "position outside the field: " + why
        if not all(-.5 <= b[3 + c] < .5 for c in range(a.dims)):
            return "velocity component outside [-.5, .5)"
        return None

    def self_test():
        return hand_cases(a, step)

    return refcommon.run(a, step, start, self_test)



def hand_cases(a, step):
    """One 3D step of two boids worked out by hand (the listing's defaults:
    ranges 40/10/40, weights .5/4/4, no limits, unit separation):

    A at (100, 100, 100), v = (1, 0, 0); B at (102, 104, 104), v = (0, 0, 1):
    |AB| = sqrt(4 + 16 + 16) = 6, within every range; C at (101, 100, 150)
    at rest is 1 px from A in x and y but sqrt(1 + 2500) = 50.01 > 40 away
    in 3D, and 46.1 from B: nobody's neighbour, and it has none (so it
    stays where it is).  For A:
      coh = unit(B - A) = (2, 4, 4) / 6 = (1/3, 2/3, 2/3)
      sep = unit(unit(A - B)) = (-1/3, -2/3, -2/3)
      ali = unit(vB) = (0, 0, 1)
      acc = .5 coh + 4 sep + 4 ali = (1/6 - 4/3, 1/3 - 8/3, 1/3 - 8/3 + 4)
          = (-7/6, -7/3, 5/3)
      vA  = (1, 0, 0) + acc = (-1/6, -7/3, 5/3), A to (100 - 1/6, 100 - 7/3,
      100 + 5/3)
    B sees A moved: B - A' = (2 + 1/6, 4 + 7/3, 4 - 5/3) = (13, 38, 14) / 6,
    |B - A'| = sqrt(169 + 1444 + 196) / 6 = sqrt(1809) / 6 = 7.09 < 10:
      coh = -(13, 38, 14) / sqrt(1809), sep = +(13, 38, 14) / sqrt(1809)
      ali = unit(vA) = (-1, -14, 10) / sqrt(1 + 196 + 100) = (...) / sqrt(297)
      vB  = (0, 0, 1) + (4 - .5) (13, 38, 14) / sqrt(1809)
            + 4 (-1, -14, 10) / sqrt(297), B to (102, 104, 104) + vB.
    The limits in 3D: (3, -4, 12) (length 13) limited to 5 is 5/13 of
    itself, clamped per component (3, -4, 5).  The wrap on z: a lone boid
    at z = 1 moving (0, 0, -2) (no neighbours: no acceleration) lands on
    z = -1 < 0, so on the far side z = D."""
    a.dims, a.update, a.width, a.height, a.depth = 3, "sequential", 1000.0, 1000.0, 500.0
    boids = [[100.0, 100.0, 100.0, 1.0, 0.0, 0.0], [102.0, 104.0, 104.0, 0.0, 0.0, 1.0],
             [101.0, 100.0, 150.0, 0.0, 0.0, 0.0]]
    step(boids, 0)
    va = [-1 / 6, -7 / 3, 5 / 3]
    vb = [3.5 * s / math.sqrt(1809) + 4 * u / math.sqrt(297) + w
          for s, u, w in zip((13, 38, 14), (-1, -14, 10), (0, 0, 1))]
    want = [[100 + va[0], 100 + va[1], 100 + va[2]] + va,
            [102 + vb[0], 104 + vb[1], 104 + vb[2]] + vb, [101, 100, 150, 0, 0, 0]]
    fails = ["two boids in 3D, boid %d: %r, by hand %r" % (i, got, w)
             for i, (got, w) in enumerate(zip(boids, want)) if not refcommon.close(got, w)]
    if not refcommon.close(limit([3, -4, 12], 5, False), [15 / 13, -20 / 13, 60 / 13]):
        fails.append("limit of (3, -4, 12) to 5: %r" % limit([3, -4, 12], 5, False))
    if limit([3, -4, 12], 5, True) != [3, -4, 5]:
        fails.append("clamp of (3, -4, 12) to 5: %r" % limit([3, -4, 12], 5, True))
    boids = [[500.0, 500.0, 1.0, 0.0, 0.0, -2.0]]
    step(boids, 0)
    if boids[0] != [500, 500, 500, 0, 0, -2]:
        fails.append("wrap on z: %r" % boids[0])
    return fails

if __name__ == "__main__":
    sys.exit(main())
