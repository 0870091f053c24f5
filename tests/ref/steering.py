#!/usr/bin/env python3
"""The Unity steering behaviours (seeds/003) in 2D, from BoidManager.
UpdateBoids(): for each boid in list order (seeing the boids already moved
before it): UpdateNeighbors (others with Position != theirs -- Unity's
approximate !=, closer than 1e-5 counts as equal -- at Distance <
NeighborDistance), then velocity = Velocity + Cohesion(steps, w) +
Separation(steps, w) + Alignment(w) + Seek(target, w) + Socialize(boids, w)
+ Arrival(target, slowing, max); LimitVelocity; LimitRotation(6.4 degrees)
= Vector3.RotateTowards; position += velocity.  Unity's Normalize is zero
at lengths not above 1e-5.  Lengths in pixels at --steer-unit px per Unity
unit (the weights given here are the pixel ones, as boids takes them).
The target moves along boids' Lissajous figure (docs/MODEL.md), the scene
has no walls.  Checks a boids trajectory; see refcommon.py."""
import cmath
import math
import sys

import refcommon


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--steer-unit", type=float, default=25)
    p.add_argument("--steer-radius", type=float, default=20)
    p.add_argument("--steer-cohesion-steps", type=float, default=100)
    p.add_argument("--steer-cohesion-weight", type=float, default=.05)
    p.add_argument("--steer-separation-steps", type=float, default=1)
    p.add_argument("--steer-separation-weight", type=float, default=.01 * 25 ** 3)
    p.add_argument("--steer-alignment-weight", type=float, default=.01 * 25)
    p.add_argument("--steer-seek-weight", type=float, default=0)
    p.add_argument("--steer-socialize-weight", type=float, default=0)
    p.add_argument("--steer-arrival-radius", type=float, default=2 * 25)
    p.add_argument("--steer-arrival-speed", type=float, default=.2 * 25)
    p.add_argument("--steer-max-speed", type=float, default=.15 * 25)
    p.add_argument("--steer-max-turn", type=float, default=6.4)
    p.add_argument("--target", default="lissajous")
    p.add_argument("--target-amp", type=float, nargs=2, default=[.3, .3])
    p.add_argument("--target-freq", type=float, nargs=2, default=[3, 2])
    p.add_argument("--target-period", type=float, default=1200)
    a = p.parse_args()
    eps = 1e-5 * a.steer_unit  # Unity's 1e-5, in pixels

    def normalize(v):
        m = abs(v)
        return v / m if m > eps else 0j

    def target(t):
        if a.target == "none":
            return None
        if a.target != "lissajous":
            x, y = (float(s) for s in a.target.split(","))
            return complex(x, y)
        th = 2 * math.pi * t / a.target_period
        return complex(a.width / 2 + a.target_amp[0] * a.width * math.cos(a.target_freq[0] * th),
                       a.height / 2 + a.target_amp[1] * a.height * math.sin(a.target_freq[1] * th))

    def move_towards(cur, to, delta):
        d = to - cur
        return to if abs(d) <= delta or abs(d) == 0 else cur + d / abs(d) * delta

    def rotate_towards(cur, to, max_rad, max_mag):
        """Vector3.RotateTowards in the plane: turn the short way by at most
        max_rad (onto `to` when closer), length toward |to| by max_mag."""
        if abs(cur) == 0 or abs(to) == 0:
            return move_towards(cur, to, max_mag)
        ang = cmath.phase(to / cur)  # (-pi, pi]: the short way
        turn = ang if abs(ang) <= max_rad else math.copysign(max_rad, ang)
        mag = abs(cur) + max(-max_mag, min(max_mag, abs(to) - abs(cur)))
        return cmath.rect(mag, cmath.phase(cur) + turn)

    def step(boids, t):
        T = target(t)
        src = boids if a.update == "sequential" else [list(b) for b in boids]
        for bi, b in enumerate(boids):
            P, V = complex(src[bi][0], src[bi][1]), complex(src[bi][2], src[bi][3])
            pts = [(complex(o[0], o[1]), complex(o[2], o[3])) for o in src]
            nb = [(q, w) for q, w in pts if not abs(q - P) < eps and abs(q - P) < a.steer_radius]
            coh = sep = ali = seek = soc = arr = 0j
            if nb:
                pc = sum(q for q, _ in nb) / len(nb)
                coh = (pc - P) / a.steer_cohesion_steps * a.steer_cohesion_weight
                for q, _ in nb:
                    sep += normalize(P - q) / abs(P - q) ** 2 / a.steer_separation_steps
                pv = sum(w for _, w in nb) / len(nb)
                ali = normalize(pv - V) * a.steer_alignment_weight
            sep *= a.steer_separation_weight
            if T is not None and a.steer_seek_weight >= 1e-4 * a.steer_unit:
                seek = normalize(T - P) * a.steer_seek_weight - V
            if not nb and a.steer_socialize_weight != 0 and len(pts) > 1:
                others = sum(q for i, (q, _) in enumerate(pts) if i != bi) / (len(pts) - 1)
                soc = normalize(others - P) * a.steer_socialize_weight
            if T is not None and a.steer_arrival_radius >= 1e-4 * a.steer_unit:
                off = T - P
                d = abs(off)
                speed = min(a.steer_arrival_speed * d / a.steer_arrival_radius, a.steer_arrival_speed)
                arr = (off / d * speed if d > 0 else 0j) - V
            v = V + coh + sep + ali + seek + soc + arr
            if abs(v) > a.steer_max_speed:
                v = v / abs(v) * a.steer_max_speed
            v = rotate_towards(V, v, math.radians(a.steer_max_turn), a.steer_max_speed)
            P += v
            b[:] = [P.real, P.imag, v.real, v.imag]

    def start(i, b):
        # Random.Range(-1, 1), Random.Range(0, 2) (y up), InitialVelocity 0
        ux, uy = (b[0] - a.width / 2) / a.steer_unit, (a.height / 2 - b[1]) / a.steer_unit
        if not (-1 - 1e-12 <= ux <= 1 + 1e-12 and -1e-12 <= uy <= 2 + 1e-12):
            return "outside Unity's start box"
        if b[2] != 0 or b[3] != 0:
            return "not at InitialVelocity (0, 0)"
        return None

    return refcommon.run(a, step, start)


if __name__ == "__main__":
    sys.exit(main())
