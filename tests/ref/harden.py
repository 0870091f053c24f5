#!/usr/bin/env python3
"""Scott W. Harden's "Boids in C#", Field.Advance() as listed:
for each boid in order, Flock(50, .0003), Align(50, .01), Avoid(20, .001),
Predator(150, .00005), added to the velocity in the order flock + avoid +
align + predator (each boid sees the velocities already changed before it);
then for each boid MoveForward(1, 5), BounceOffWalls (pad 50, turn .5)
and/or WrapAround.  Neighbours: every boid at distance < r, itself included.

In 3D (a file with z, vz columns; docs/MODEL.md, "3D") every rule
is the same with vectors of three: distances, means, offsets and the speed
clamp use x, y and z; the walls turn vz by .5 within 50 of z = 0 and z = D,
after x and y; the wrap adds or subtracts D.  The 3D start is the C#
scatter with six draws: x = uW, y = uH, z = uD, v = u - .5 each.
Checks a boids trajectory; see refcommon.py."""
import math
import sys

import refcommon


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--predators", type=int, default=3)
    p.add_argument("--edges", default="bounce", choices=["bounce", "wrap", "both", "none"])
    a = p.parse_args()

    def dist(b, o):
        return math.sqrt((b[0] - o[0]) ** 2 + (b[1] - o[1]) ** 2 + (b[2] - o[2]) ** 2)

    def step(boids, t):
        sides = refcommon.edges(a)
        old = [list(b) for b in boids]  # synchronous: every boid reads the old state
        for bi, b in enumerate(boids):
            src = old if a.update == "synchronous" else boids
            me = b if a.update == "sequential" else old[bi]
            # Flock
            nb = [o for o in src if dist(o, me) < 50]
            flock = [(sum(o[c] for o in nb) / len(nb) - me[c]) * .0003 for c in range(3)]
            # Align
            nb = [o for o in src if dist(o, me) < 50]
            align = [(sum(o[3 + c] for o in nb) / len(nb) - me[3 + c]) * .01 for c in range(3)]
            # Avoid
            avoid = [0.0, 0.0, 0.0]
            for o in src:
                d = dist(me, o)
                if d < 20:
                    for c in range(3):
                        avoid[c] += (me[c] - o[c]) * (20 - d)
            # Predator
            flee = [0.0, 0.0, 0.0]
            for i in range(a.predators):
                d = dist(me, src[i])
                if d < 150:
                    for c in range(3):
                        flee[c] += (me[c] - src[i][c]) * (150 - d)
            for c in range(3):
                b[3 + c] += flock[c] + avoid[c] * .001 + align[c] + flee[c] * .00005
        for b in boids:
            for c in range(3):
                b[c] += b[3 + c]
            speed = math.sqrt(b[3] ** 2 + b[4] ** 2 + b[5] ** 2)
            for c in range(3, 6):
                if speed > 5:
                    b[c] = b[c] / speed * 5
                elif speed < 1:
                    b[c] = b[c] / speed * 1 if speed else math.nan
                if math.isnan(b[c]):
                    b[c] = 0.0
            for c, side in enumerate(sides):
                if a.edges in ("bounce", "both"):
                    if b[c] < 50:
                        b[3 + c] += .5
                    if b[c] > side - 50:
                        b[3 + c] -= .5
            for c, side in enumerate(sides):
                if a.edges in ("wrap", "both"):
                    if b[c] < 0:
                        b[c] += side
                    if b[c] > side:
                        b[c] -= side

    def start(i, b):
        # Field(): X = u*Width, Y = u*Height (, Z = u*Depth), Xvel = u - .5, ...
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
    """One 3D step of two boids worked out by hand (no predators, no walls):

    A at (100, 100, 100), v = (1, 0, 0); B at (102, 104, 104), v = (0, 0, 1):
    |AB| = sqrt(4 + 16 + 16) = 6, so each is in the other's flock and avoid
    radii (itself too, at 0).  For A (first, so B's velocity is still old):
      flock = (mean(100, 102) - 100, mean(100, 104) - 100, same) * .0003
            = (1, 2, 2) * .0003 = (.0003, .0006, .0006)
      align = (mean(1, 0) - 1, 0, mean(0, 1) - 0) * .01 = (-.005, 0, .005)
      avoid = (A - B) * (20 - 6) * .001 = (-2, -4, -4) * .014
            = (-.028, -.056, -.056)
      vA    = (1 + .0003 - .028 - .005, .0006 - .056, .0006 - .056 + .005)
            = (.9673, -.0554, -.0504)
    B sees A's new velocity: mean v = (.9673 / 2, -.0554 / 2, (1 - .0504) / 2)
    = (.48365, -.0277, .4748):
      flock = (-1, -2, -2) * .0003 = (-.0003, -.0006, -.0006)
      align = (.48365, -.0277, .4748 - 1) * .01 = (.0048365, -.000277, -.005252)
      avoid = (2, 4, 4) * .014 = (.028, .056, .056)
      vB    = (-.0003 + .028 + .0048365, -.0006 + .056 - .000277,
               1 - .0006 + .056 - .005252) = (.0325365, .055123, 1.050148)
    Then the moves: A to (100.9673, 99.9446, 99.9496), B to (102.0325365,
    104.055123, 105.050148), and the clamp: |vA|^2 = .93566929 + .00306916
    + .00254016 = .94127861, |vA| = .97019... < 1, so vA is scaled up to
    length 1 (.99701..., -.05710..., -.05194...); |vB|^2 = 1.10690799086525,
    |vB| = 1.05209... in [1, 5]: vB stays.

    And the box's z sides (a lone boid sees only itself: no steering): at
    z = 10 moving (0, 0, -2), bounce: z = 8 < 50, vz = -2 + .5 = -1.5; at
    z = 1 moving (0, 0, -2) in a box 1000 deep, wrap: z = -1 + 1000 = 999;
    at z = 999 moving (0, 0, 2): z = 1001 - 1000 = 1."""
    a.dims, a.predators, a.edges, a.update = 3, 0, "none", "sequential"
    a.width = a.height = a.depth = 1000.0
    boids = [[100.0, 100.0, 100.0, 1.0, 0.0, 0.0], [102.0, 104.0, 104.0, 0.0, 0.0, 1.0]]
    step(boids, 0)
    va = (.9673, -.0554, -.0504)
    na = math.sqrt(.94127861)
    want = [[100.9673, 99.9446, 99.9496] + [x / na for x in va],
            [102.0325365, 104.055123, 105.050148, .0325365, .055123, 1.050148]]
    fails = ["two boids in 3D, boid %d: %r, by hand %r" % (i, got, w)
             for i, (got, w) in enumerate(zip(boids, want)) if not refcommon.close(got, w)]
    for edges, z, vz, want in [("bounce", 10, -2, [8, -1.5]), ("wrap", 1, -2, [999, -2]),
                               ("wrap", 999, 2, [1, 2])]:
        a.edges = edges
        boids = [[500.0, 500.0, z, 0.0, 0.0, vz]]
        step(boids, 0)
        if not refcommon.close(boids[0], [500, 500, want[0], 0, 0, want[1]]):
            fails.append("%s on z: %r" % (edges, boids[0]))
    return fails


if __name__ == "__main__":
    sys.exit(main())
