#!/usr/bin/env python3
"""Kakehi's "Boids ... in Processing" (seeds/002), from its Java listings:
neighbours of each rule are the other boids within its range (<=);
cohesion() = normalize(mean position - pos); separation() = normalize(sum
of PVector.div(towardsMe.normalize(), towardsMe.mag())) over towardsMe.mag()
> 0 -- normalize() works in place, so mag() is 1 then: a sum of unit
vectors (--separation inverse divides by the distance instead);
alignment() = normalize(sum of v).  acceleration = weighted sum; velocity +=
acceleration; position += velocity (the pseudo-code), optional limits as
PVector.limit() or per component; wrap to the other edge.  Boids are
updated in order, position included.  Checks a boids trajectory."""
import math
import sys

import refcommon


def normalize(v):
    """PVector.normalize(): divide by the magnitude unless it is 0."""
    m = math.sqrt(v[0] * v[0] + v[1] * v[1])
    return [v[0] / m, v[1] / m] if m != 0 else [v[0], v[1]]


def limit(v, m, components):
    if m <= 0:
        return v
    if components:
        return [min(max(v[0], -m), m), min(max(v[1], -m), m)]
    mag = math.sqrt(v[0] * v[0] + v[1] * v[1])
    return [v[0] / mag * m, v[1] / mag * m] if mag > m else v


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
            def near(r):
                return [o for oi, o in enumerate(src) if oi != bi and
                        math.sqrt((o[0] - me[0]) ** 2 + (o[1] - me[1]) ** 2) <= r]
            nb = near(a.proc_cohesion_radius)
            coh = [0.0, 0.0]
            if nb:
                coh = normalize([sum(o[0] for o in nb) / len(nb) - me[0],
                                 sum(o[1] for o in nb) / len(nb) - me[1]])
            sep = [0.0, 0.0]
            for o in near(a.proc_separation_radius):
                towards = [me[0] - o[0], me[1] - o[1]]
                mag = math.sqrt(towards[0] ** 2 + towards[1] ** 2)
                if mag > 0:
                    u = normalize(towards)
                    div = mag if a.separation == "inverse" else 1.0
                    sep = [sep[0] + u[0] / div, sep[1] + u[1] / div]
            sep = normalize(sep)
            ali = [0.0, 0.0]
            for o in near(a.proc_alignment_radius):
                ali = [ali[0] + o[2], ali[1] + o[3]]
            ali = normalize(ali)
            acc = [coh[c] * a.proc_cohesion_weight + sep[c] * a.proc_separation_weight +
                   ali[c] * a.proc_alignment_weight for c in range(2)]
            acc = limit(acc, a.proc_max_force, comp)
            v = limit([me[2] + acc[0], me[3] + acc[1]], a.proc_max_speed, comp)
            x, y = me[0] + v[0], me[1] + v[1]
            if x < 0:
                x = a.width
            elif x > a.width:
                x = 0.0
            if y < 0:
                y = a.height
            elif y > a.height:
                y = 0.0
            b[:] = [x, y, v[0], v[1]]

    def start(i, b):
        # the listing's Setup gives no start; boids starts it as the C# does
        if not (0 <= b[0] < a.width and 0 <= b[1] < a.height):
            return "position outside the field"
        if not (-.5 <= b[2] < .5 and -.5 <= b[3] < .5):
            return "velocity component outside [-.5, .5)"
        return None

    return refcommon.run(a, step, start)


if __name__ == "__main__":
    sys.exit(main())
