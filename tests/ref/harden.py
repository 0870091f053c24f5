#!/usr/bin/env python3
"""Scott W Harden's "Boids in C#" (seeds/000), Field.Advance() as listed:
for each boid in order, Flock(50, .0003), Align(50, .01), Avoid(20, .001),
Predator(150, .00005), added to the velocity in the order flock + avoid +
align + predator (each boid sees the velocities already changed before it);
then for each boid MoveForward(1, 5), BounceOffWalls (pad 50, turn .5)
and/or WrapAround.  Neighbours: every boid at distance < r, itself included.
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
        return math.sqrt((b[0] - o[0]) ** 2 + (b[1] - o[1]) ** 2)

    def step(boids, t):
        W, H = a.width, a.height
        old = [list(b) for b in boids]  # synchronous: every boid reads the old state
        for b in boids:
            src = old if a.update == "synchronous" else boids
            me = b if a.update == "sequential" else old[boids.index(b)]
            # Flock
            nb = [o for o in src if dist(o, me) < 50]
            fx = (sum(o[0] for o in nb) / len(nb) - me[0]) * .0003
            fy = (sum(o[1] for o in nb) / len(nb) - me[1]) * .0003
            # Align
            nb = [o for o in src if dist(o, me) < 50]
            ax = (sum(o[2] for o in nb) / len(nb) - me[2]) * .01
            ay = (sum(o[3] for o in nb) / len(nb) - me[3]) * .01
            # Avoid
            sx = sy = 0.0
            for o in src:
                d = dist(me, o)
                if d < 20:
                    sx += (me[0] - o[0]) * (20 - d)
                    sy += (me[1] - o[1]) * (20 - d)
            vx, vy = sx * .001, sy * .001
            # Predator
            px = py = 0.0
            for i in range(a.predators):
                d = dist(me, src[i])
                if d < 150:
                    px += (me[0] - src[i][0]) * (150 - d)
                    py += (me[1] - src[i][1]) * (150 - d)
            b[2] += fx + vx + ax + px * .00005
            b[3] += fy + vy + ay + py * .00005
        for b in boids:
            b[0] += b[2]
            b[1] += b[3]
            speed = math.sqrt(b[2] ** 2 + b[3] ** 2)
            if speed > 5:
                b[2], b[3] = b[2] / speed * 5, b[3] / speed * 5
            elif speed < 1:
                b[2] = b[2] / speed * 1 if speed else math.nan
                b[3] = b[3] / speed * 1 if speed else math.nan
            if math.isnan(b[2]):
                b[2] = 0.0
            if math.isnan(b[3]):
                b[3] = 0.0
            if a.edges in ("bounce", "both"):
                if b[0] < 50:
                    b[2] += .5
                if b[0] > W - 50:
                    b[2] -= .5
                if b[1] < 50:
                    b[3] += .5
                if b[1] > H - 50:
                    b[3] -= .5
            if a.edges in ("wrap", "both"):
                if b[0] < 0:
                    b[0] += W
                if b[0] > W:
                    b[0] -= W
                if b[1] < 0:
                    b[1] += H
                if b[1] > H:
                    b[1] -= H

    def start(i, b):
        # Field(): X = u*Width, Y = u*Height, Xvel = u - .5, Yvel = u - .5
        if not (0 <= b[0] < a.width and 0 <= b[1] < a.height):
            return "position outside the field"
        if not (-.5 <= b[2] < .5 and -.5 <= b[3] < .5):
            return "velocity component outside [-.5, .5)"
        return None

    return refcommon.run(a, step, start)


if __name__ == "__main__":
    sys.exit(main())
