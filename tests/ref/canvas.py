#!/usr/bin/env python3
"""The TypeScript canvas boids (seeds/004), from its listings:
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
by zero).  Birds are updated in order.  Checks a boids trajectory."""
import math
import sys

import refcommon


def normalize(x, y):
    m = math.hypot(x, y)
    return (x / m, y / m) if m > 0 else (x, y)


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
            x, y = src[bi][0], src[bi][1]
            vx, vy = src[bi][2] / dt, src[bi][3] / dt
            seen = 0
            cx = cy = sx = sy = ax = ay = 0.0
            for oi, o in enumerate(src):
                if oi == bi or not math.hypot(o[0] - x, o[1] - y) < a.canvas_visual_range:
                    continue
                seen += 1
                cx, cy = cx + o[0], cy + o[1]
                dx, dy = o[0] - x, o[1] - y
                if math.hypot(dx, dy) < a.canvas_separation_distance:
                    sx, sy = sx - dx, sy - dy
                ax, ay = ax + o[2] / dt, ay + o[3] / dt
            accx = accy = 0.0
            if seen:
                cohx = (cx / seen - x) / a.canvas_cohesion_resistance
                cohy = (cy / seen - y) / a.canvas_cohesion_resistance
                ux, uy = normalize(ax / seen, ay / seen)
                alix = (ux * speed - vx) * a.canvas_alignment_eagerness
                aliy = (uy * speed - vy) * a.canvas_alignment_eagerness
                accx, accy = cohx + sx + alix, cohy + sy + aliy
            wx, wy = normalize(vx + accx, vy + accy)
            vx, vy = wx * speed * dt, wy * speed * dt  # stored per step
            x, y = x + vx, y + vy
            if x < 0:
                x = a.width
            elif x > a.width:
                x = 0.0
            if y < 0:
                y = a.height
            elif y > a.height:
                y = 0.0
            b[:] = [x, y, vx, vy]

    def start(i, b):
        # random position on the canvas, random heading at BIRD_SPEED
        if not (0 <= b[0] < a.width and 0 <= b[1] < a.height):
            return "position outside the canvas"
        if abs(math.hypot(b[2], b[3]) - speed * dt) > 1e-12:
            return "speed %.17g px/step, not %.17g" % (math.hypot(b[2], b[3]), speed * dt)
        return None

    return refcommon.run(a, step, start)


if __name__ == "__main__":
    sys.exit(main())
