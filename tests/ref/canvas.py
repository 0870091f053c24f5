#!/usr/bin/env python3
"""Zack Therrien's TypeScript canvas boids, from its listings:
performManeuvers(): for every other bird at distance < BIRD_VISUAL_RANGE,
birdsSeen += 1 and each rule accumulates it (cohesion: its position;
separation: subtract (its position - ours) when that is shorter than
BIRD_SEPARATION_DISTANCE; alignment: its velocity); acceleration = sum of
the rules' perform(birdsSeen): cohesion (sum / seen - position) /
BIRD_COHESION_RESISTANCE, separation the accumulator as is, alignment
(normalize(sum / seen) * BIRD_SPEED - velocity) * BIRD_ALIGNMENT_EAGERNESS;
velocity = normalize(velocity + acceleration) * BIRD_SPEED; then update():
position += velocity * deltaTime, checkBoundary() wraps to the other edge.
Velocities are px/s; the trajectory stores px per step (velocity * dt).
A bird that sees nobody gets no acceleration (the listing would divide
by zero).  Birds are updated in order.

In 3D (a file with z, vz columns; docs/MODEL.md, "3D") the same
listing with vectors of three: distances, sums, means and normalize() over
x, y, z, and the wrap to the other edge on z too (z < 0 -> D, z > D -> 0).
The 3D start: x = uW, y = uH, z = uD, a heading uniform on the sphere at
BIRD_SPEED.  Checks a boids trajectory."""
import math
import sys

import refcommon


def normalize(v):
    m = math.hypot(*v)
    return [x / m for x in v] if m > 0 else list(v)


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--canvas-visual-range", type=float, default=50)
    p.add_argument("--canvas-cohesion-resistance", type=float, default=10)
    p.add_argument("--canvas-separation-distance", type=float, default=15)
    p.add_argument("--canvas-alignment-eagerness", type=float, default=.05)
    p.add_argument("--canvas-speed", type=float, default=100)
    p.add_argument("--canvas-dt", type=float, default=1 / 60)
    a = p.parse_args()
    dt, speed = a.canvas_dt, a.canvas_speed

    def step(boids, t):
        src = boids if a.update == "sequential" else [list(b) for b in boids]
        for bi, b in enumerate(boids):
            p = src[bi][0:3]
            v = [x / dt for x in src[bi][3:6]]
            seen = 0
            coh, sep, ali = [0.0] * 3, [0.0] * 3, [0.0] * 3
            for oi, o in enumerate(src):
                dx, dy, dz = o[0] - p[0], o[1] - p[1], o[2] - p[2]
                d = math.hypot(dx, dy, dz)
                if oi == bi or not d < a.canvas_visual_range:
                    continue
                seen += 1
                coh = [coh[0] + o[0], coh[1] + o[1], coh[2] + o[2]]
                if d < a.canvas_separation_distance:
                    sep = [sep[0] - dx, sep[1] - dy, sep[2] - dz]
                ali = [ali[0] + o[3] / dt, ali[1] + o[4] / dt, ali[2] + o[5] / dt]
            acc = [0.0] * 3
            if seen:
                u = normalize([x / seen for x in ali])
                acc = [(coh[c] / seen - p[c]) / a.canvas_cohesion_resistance + sep[c] +
                       (u[c] * speed - v[c]) * a.canvas_alignment_eagerness for c in range(3)]
            w = normalize([v[c] + acc[c] for c in range(3)])
            v = [x * speed * dt for x in w]  # stored per step
            p = [p[c] + v[c] for c in range(3)]
            b[:] = refcommon.wrap_to_edge(a, p) + v

    def start(i, b):
        # random position on the canvas (in the box), random heading at BIRD_SPEED
        why = refcommon.outside_box(a, b)
        if why:
            return "position outside the canvas: " + why
        if abs(math.hypot(*b[3:6]) - speed * dt) > 1e-12:
            return "speed %.17g px/step, not %.17g" % (math.hypot(*b[3:6]), speed * dt)
        return None

    def self_test():
        return hand_cases(a, step)

    return refcommon.run(a, step, start, self_test)



def hand_cases(a, step):
    """One 3D step of a bird worked out by hand (the defaults: range 50,
    resistance 10, separation 15, eagerness .05, 100 px/s, dt 1/60):

    A at (100, 100, 100) flying (100, 0, 0) px/s, B at (102, 104, 104)
    flying (0, 0, 100) px/s; |AB| = sqrt(4 + 16 + 16) = 6: seen, and close.
    C at (101, 100, 160) is 1 px from A in x and y but sqrt(1 + 3600) =
    60.01 > 50 away in 3D: unseen.  For A (first):
      coh = ((102, 104, 104) - (100, 100, 100)) / 10 = (.2, .4, .4)
      sep = -(2, 4, 4)
      ali = (unit(0, 0, 100) * 100 - (100, 0, 0)) * .05 = (-5, 0, 5)
      W   = (100, 0, 0) + (.2 - 2 - 5, .4 - 4, .4 - 4 + 5) = (93.2, -3.6, 1.4)
      |W| = sqrt(8686.24 + 12.96 + 1.96) = sqrt(8701.16) = 93.280...
      v   = W / |W| * 100 / 60 px/step = (1.66523..., -.06432..., .02501...)
    and A moves by v.  The wrap on z: a lone bird at z = 1 flying straight
    down z (v = (0, 0, -100/60) px/step) lands at z = -2/3 < 0, so on the
    far side z = D."""
    a.dims, a.update, a.width, a.height, a.depth = 3, "sequential", 1000.0, 1000.0, 500.0
    a.canvas_dt, a.canvas_speed = 1 / 60, 100.0
    boids = [[100.0, 100.0, 100.0, 100 / 60, 0.0, 0.0], [102.0, 104.0, 104.0, 0.0, 0.0, 100 / 60],
             [101.0, 100.0, 160.0, 0.0, 100 / 60, 0.0]]
    step(boids, 0)
    va = [x / math.sqrt(8701.16) * 100 / 60 for x in (93.2, -3.6, 1.4)]
    fails = []
    if not refcommon.close(boids[0], [100 + va[0], 100 + va[1], 100 + va[2]] + va):
        fails.append("a bird in 3D: %r, by hand %r" % (boids[0], va))
    boids = [[500.0, 500.0, 1.0, 0.0, 0.0, -100 / 60]]
    step(boids, 0)
    if boids[0] != [500, 500, 500, 0, 0, -100 / 60]:
        fails.append("wrap on z: %r" % boids[0])
    return fails

if __name__ == "__main__":
    sys.exit(main())
