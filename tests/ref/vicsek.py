#!/usr/bin/env python3
"""T. Vicsek, A. Czirok, E. Ben-Jacob, I. Cohen, O. Shochet, "Novel type of
phase transition in a system of self-driven particles", Phys. Rev. Lett.
75, 1226 (1995), written from the paper: N particles in an L x L box with
periodic boundary conditions, all at the same absolute velocity v.  At each
time step a particle "assumes the average direction of motion of the
particles in its neighborhood of radius r with some random perturbation
added":

    x_i(t+1) = x_i(t) + v_i(t) dt                               (1)
    theta(t+1) = <theta(t)>_r + dtheta                          (2)

where <theta(t)>_r is "the direction of the average velocity of the particles
(including particle i) being within a circle of radius r", i.e.
atan2(sum of sin, sum of cos) of their velocities, and dtheta a random
number "with a uniform probability from the interval [-eta/2, eta/2]".  The
velocity entering (1) is the new one, v(t+1) (the issue's reading of the
paper, x(t+1) = x(t) + v(t+1) dt, dt = 1).  All particles are updated
simultaneously; --update sequential updates them one after another in index
order instead.  Distances are the minimum image on the torus; positions are
taken into [0, L) as x - L floor(x / L) (then + L below 0, - L at L).

The noise is boids' keyed draw, as docs/MODEL.md ("vicsek", "Random
numbers") defines it, so that this program and boids add the same dtheta:
u = (key(seed, t, i) >> 11) 2^-53 with key(s, t, k) = mix(mix(mix(s) ^ t) ^ k)
and mix SplitMix64's finaliser; dtheta = eta (u - 1/2).

In 3D (a file with z, vz; docs/MODEL.md "vicsek", 3D) the mean direction is
the unit sum of the velocities (+x when they cancel), turned within a cone
of half-angle eta/2, uniformly on the sphere's cap: cos(alpha) = 1 - u1 (1 -
cos(eta/2)), phi = 2 pi u2 (u1, u2 the draws keyed 2i and 2i + 1), about
e1 = unit(a x d), e2 = d x e1, a the coordinate axis along which |d| is
least (x, then y, then z in a tie).  Checks a boids trajectory, to the
tolerance given (the tests ask 1e-12)."""
import math
import sys

import refcommon

draw = refcommon.noise01  # the keyed draw (docs/MODEL.md)


def unit(v):
    m = math.sqrt(sum(c * c for c in v))
    return [c / m for c in v] if m > 0 else list(v)


def cone(d, eta, u1, u2):
    """d turned by a rotation uniform within the cone of half-angle eta/2."""
    ca = 1 - u1 * (1 - math.cos(eta / 2))
    sa = math.sqrt(max(0.0, 1 - ca * ca))
    phi = 2 * math.pi * u2
    ax, ay, az = (abs(c) for c in d)
    if ax <= ay and ax <= az:
        e1 = [0.0, -d[2], d[1]]  # x-hat cross d
    elif ay <= az:
        e1 = [d[2], 0.0, -d[0]]  # y-hat cross d
    else:
        e1 = [-d[1], d[0], 0.0]  # z-hat cross d
    e1 = unit(e1)
    e2 = [d[1] * e1[2] - d[2] * e1[1], d[2] * e1[0] - d[0] * e1[2], d[0] * e1[1] - d[1] * e1[0]]
    c, s = math.cos(phi), math.sin(phi)
    return [ca * d[k] + sa * (c * e1[k] + s * e2[k]) for k in range(3)]


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--vicsek-noise", type=float, default=0.1)
    p.add_argument("--vicsek-speed", type=float, default=0.03)
    p.add_argument("--vicsek-radius", type=float, default=1)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    def step(parts, t):
        sides = refcommon.edges(a)
        for b in parts:  # onto the torus
            for c, side in enumerate(sides):
                b[c] = refcommon.torus_wrap(b[c], side)
        old = parts if a.update == "sequential" else [list(b) for b in parts]
        for i, b in enumerate(parts):
            s = [0.0, 0.0, 0.0]
            for o in old:
                d = [refcommon.min_image(o[c] - b[c], side) for c, side in enumerate(sides)]
                if sum(x * x for x in d) <= a.vicsek_radius ** 2:  # itself too
                    s = [s[k] + o[3 + k] for k in range(3)]
            if a.dims == 3:
                d = unit(s)
                if d == [0.0, 0.0, 0.0]:
                    d = [1.0, 0.0, 0.0]
                d = cone(d, a.vicsek_noise, draw(a.seed, t, 2 * i), draw(a.seed, t, 2 * i + 1))
            else:
                th = math.atan2(s[1], s[0]) + a.vicsek_noise * (draw(a.seed, t, i) - 0.5)
                d = [math.cos(th), math.sin(th), 0.0]
            v = [a.vicsek_speed * c for c in d]
            b[:] = [refcommon.torus_wrap(b[c] + v[c], side) for c, side in enumerate(sides)] + b[len(sides):3] + v

    def start(i, b):
        why = refcommon.outside_box(a, b)
        if why:
            return "position outside the box: " + why
        speed = math.sqrt(sum(c * c for c in b[3:6]))
        if abs(speed - a.vicsek_speed) > 1e-12:
            return "speed %.17g, not v = %.17g" % (speed, a.vicsek_speed)
        return None

    def self_test():
        return hand_cases(a, step)

    return refcommon.run(a, step, start, self_test)


def hand_cases(a, step):
    """Cases worked out by hand, the noise off where it would hide them:

    1. Two particles 0.4 apart across the left and right sides of a 10 x 10
       box (x = 0.2 and 9.8, the minimum image: within r = 1), the first
       heading +x, the second +y: each takes (1, 1)/sqrt 2, at v = 0.03, and
       moves by 0.0212... on x and y; a third particle 4.8 away sees neither
       and keeps +x.  A lone particle at x = 0.01 heading -x steps over the
       side to 10 - 0.02.
    2. In 3D, velocities (v, 0, 0) and (0, v, 0) within r: the mean
       direction (1, 1, 0)/sqrt 2 with eta = 0.
    3. The cone: d = (0, 0, 1), eta = pi (half-angle 90 degrees), u1 = 1,
       u2 = 0: cos(alpha) = 1 - (1 - cos 90) = 0, and e1 = unit(x-hat x z-hat)
       = (0, -1, 0): the direction becomes (0, -1, 0); u2 = 1/4 turns it a
       quarter about z-hat to e2 = z-hat x e1 = (1, 0, 0).
    4. The noise alone: one particle heading +x with eta = 1 at step 5 turns
       by exactly 1 x (u - 1/2), u the draw keyed (seed 1, 5, 0)."""
    fails = []
    a.update, a.vicsek_noise, a.vicsek_speed, a.vicsek_radius, a.seed = "synchronous", 0.0, 0.03, 1.0, 1
    a.dims, a.width, a.height, a.depth = 2, 10.0, 10.0, 10.0
    v, h = 0.03, 0.03 / math.sqrt(2)
    parts = [[0.2, 5.0, 0.0, v, 0.0, 0.0], [9.8, 5.0, 0.0, 0.0, v, 0.0], [5.0, 5.0, 0.0, v, 0.0, 0.0]]
    step(parts, 0)
    if not (refcommon.close(parts[0], [0.2 + h, 5 + h, 0, h, h, 0]) and
            refcommon.close(parts[1], [9.8 + h, 5 + h, 0, h, h, 0]) and
            refcommon.close(parts[2], [5 + v, 5, 0, v, 0, 0])):
        fails.append("across the side: %r" % parts)
    parts = [[0.01, 5.0, 0.0, -v, 0.0, 0.0]]
    step(parts, 0)
    if not refcommon.close(parts[0], [10 - 0.02, 5, 0, -v, 0, 0]):
        fails.append("the wrap: %r" % parts)
    a.dims = 3
    parts = [[5.0, 5.0, 5.0, v, 0.0, 0.0], [5.5, 5.0, 5.0, 0.0, v, 0.0]]
    step(parts, 0)
    if not refcommon.close(parts[0][3:], [h, h, 0]):
        fails.append("3D mean: %r" % parts)
    got = cone([0.0, 0.0, 1.0], math.pi, 1.0, 0.0)
    if not refcommon.close(got, [0, -1, 0]):
        fails.append("cone, u2 = 0: %r" % got)
    got = cone([0.0, 0.0, 1.0], math.pi, 1.0, 0.25)
    if not refcommon.close(got, [1, 0, 0]):
        fails.append("cone, u2 = 1/4: %r" % got)
    a.dims, a.vicsek_noise = 2, 1.0
    parts = [[5.0, 5.0, 0.0, v, 0.0, 0.0]]
    step(parts, 5)
    th = draw(1, 5, 0) - 0.5
    if not refcommon.close(parts[0][3:5], [v * math.cos(th), v * math.sin(th)]):
        fails.append("noise: %r, want turn %.17g" % (parts, th))
    return fails


if __name__ == "__main__":
    sys.exit(main())
