#!/usr/bin/env python3
"""Couzin, Krause, James, Ruxton and Franks, "Collective memory and spatial
sorting in animal groups", J. theor. Biol. 218, 1-11 (2002), section 2,
"The Model", as docs/MODEL.md ("couzin") states it:

Individual i at c_i with unit direction v_i, speed s, time step tau.  With
r_ij = (c_j - c_i) / |c_j - c_i| and the others j it can see (outside the
blind volume behind it: the angle between v_i and r_ij at most alpha / 2;
alpha = 360 sees all round):
  zone of repulsion, |c_j - c_i| < r_r:  n_r of them,
      d_i = - sum r_ij                                            (eq. 1)
  if n_r = 0, zone of orientation, r_r <= |c_j - c_i| < r_o = r_r + dr_o:
      d_o = sum v_j / |v_j|                                       (eq. 3)
  and zone of attraction, r_o <= |c_j - c_i| < r_a = r_o + dr_a:
      d_a = sum r_ij                                              (eq. 4)
  d_i = d_o or d_a when only one zone has anybody, 1/2 (d_o + d_a) of the
  two as unit vectors when both do (eq. 5); v_i when nobody is seen or the
  sum is zero.
d_i is made a unit vector and turned by a random angle from a Gaussian of
standard deviation sigma; the individual turns toward it by at most
theta tau (onto it when the angle is smaller) and moves s tau along it.
Everybody from the same state (--update synchronous, the paper's), or
one after another in index order (sequential).

The draws (docs/MODEL.md): u = noise01(seed, step, key), noise01 being
SplitMix64's finaliser chained over seed, step and key (the top 53 bits
times 2^-53); for boid b the keys 3b, 3b + 1 (the Gaussian by Box-Muller:
g = sqrt(-2 ln(1 - u1)) cos(2 pi u2), angle sigma g) and in 3D 3b + 2 (the
axis: the angle phi = 2 pi u3 around d from e1 = unit(-d_y, d_x, 0), or
unit(0, -d_z, d_y) when |d_z| >= 0.9, toward e2 = d x e1).  In 2D the
angle turns d counter-clockwise (from +x toward +y).

Velocities in the trajectory are per step: v_i s tau.  Edges (boids' own,
not the paper's, whose space is open): none; wrap (x < 0 -> x + W, x > W ->
x - W after the move, and every offset between two individuals the short
way round: d > W/2 -> d - W, d < -W/2 -> d + W); bounce (inside --wall-pad
of a side, the unit desired direction gets +-wall-turn along that axis
before the noise, then is made a unit vector again).  Checks a boids
trajectory."""
import math
import sys

import refcommon

noise01 = refcommon.noise01


def norm(v):
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def unit(v):
    m = norm(v)
    return [x / m for x in v] if m > 0 else [0.0, 0.0, 0.0]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--edges", default="none", choices=["bounce", "wrap", "both", "none"])
    p.add_argument("--wall-pad", type=float, default=4)
    p.add_argument("--wall-turn", type=float, default=.5)
    p.add_argument("--couzin-repulsion", type=float, default=1)
    p.add_argument("--couzin-orientation", type=float, default=1)
    p.add_argument("--couzin-attraction", type=float, default=14)
    p.add_argument("--couzin-perception", type=float, default=270)
    p.add_argument("--couzin-turn", type=float, default=40)
    p.add_argument("--couzin-speed", type=float, default=3)
    p.add_argument("--couzin-noise", type=float, default=.05)
    p.add_argument("--couzin-dt", type=float, default=.1)
    p.set_defaults(update="synchronous", size="64x36")
    a = p.parse_args()
    return refcommon.run(a, lambda boids, t: step(a, boids, t), lambda i, b: start(a, b),
                         lambda: hand_cases(a))


def offset(a, c, d):
    """c_j - c_i on each axis, the short way round with --edges wrap."""
    o = [d[k] - c[k] for k in range(3)]
    if a.edges in ("wrap", "both"):
        for k, side in enumerate(refcommon.edges(a)):
            if o[k] > side / 2:
                o[k] -= side
            elif o[k] < -side / 2:
                o[k] += side
    return o


def desired(a, src, i):
    """d_i of eqs. 1-5, not yet a unit vector, and v_i as a unit vector."""
    c, v = src[i][0:3], unit(src[i][3:6])
    r_r = a.couzin_repulsion
    r_o = r_r + a.couzin_orientation
    r_a = r_o + a.couzin_attraction
    half = math.radians(a.couzin_perception / 2)
    rep, ori, att = [0.0] * 3, [0.0] * 3, [0.0] * 3
    n_r = n_o = n_a = 0
    for j, o in enumerate(src):
        r = offset(a, c, o[0:3])
        d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
        if j == i or not 0 < d2 < r_a * r_a:
            continue
        d = math.sqrt(d2)
        rij = [x / d for x in r]
        if a.couzin_perception < 360 and norm(v) > 0 and not dot(v, rij) >= math.cos(half):
            continue  # the blind volume
        if d2 < r_r * r_r:
            rep = [rep[k] - rij[k] for k in range(3)]
            n_r += 1
        elif d2 < r_o * r_o:
            vj = o[3:6]
            if norm(vj) > 0:
                ori = [ori[k] + vj[k] / norm(vj) for k in range(3)]
                n_o += 1
        else:
            att = [att[k] + rij[k] for k in range(3)]
            n_a += 1
    if n_r:
        return rep, v
    if n_o and n_a:
        uo, ua = unit(ori), unit(att)
        return [(uo[k] + ua[k]) / 2 for k in range(3)], v
    if n_o:
        return ori, v
    if n_a:
        return att, v
    return v, v


def noisy(a, d, b, t):
    """d turned by the step's Gaussian angle (docs/MODEL.md's draws)."""
    u1, u2 = noise01(a.seed, t, 3 * b), noise01(a.seed, t, 3 * b + 1)
    ang = a.couzin_noise * math.sqrt(-2 * math.log(1 - u1)) * math.cos(2 * math.pi * u2)
    if a.dims == 2:
        return [math.cos(ang) * d[0] - math.sin(ang) * d[1], math.sin(ang) * d[0] + math.cos(ang) * d[1], 0.0]
    phi = 2 * math.pi * noise01(a.seed, t, 3 * b + 2)
    e1 = unit([-d[1], d[0], 0.0] if abs(d[2]) < .9 else [0.0, -d[2], d[1]])
    e2 = cross(d, e1)
    w = [math.cos(phi) * e1[k] + math.sin(phi) * e2[k] for k in range(3)]
    return [math.cos(ang) * d[k] + math.sin(ang) * w[k] for k in range(3)]


def turn(v, d, most, dims):
    """v turned toward d by at most `most` radians: about the axis v x d
    (Rodrigues; the axis is perpendicular to v), in 2D by the signed angle."""
    if dims == 2:
        ang = math.atan2(v[0] * d[1] - v[1] * d[0], v[0] * d[0] + v[1] * d[1])
        if abs(ang) <= most:
            return d
        r = most if ang > 0 else -most
        return [v[0] * math.cos(r) - v[1] * math.sin(r), v[0] * math.sin(r) + v[1] * math.cos(r), 0.0]
    if math.acos(max(-1.0, min(1.0, dot(v, d)))) <= most:
        return d
    k = unit(cross(v, d))
    kv = cross(k, v)
    return [v[c] * math.cos(most) + kv[c] * math.sin(most) for c in range(3)]


def step(a, boids, t):
    src = boids if a.update == "sequential" else [list(b) for b in boids]
    length = a.couzin_speed * a.couzin_dt
    most = math.radians(a.couzin_turn) * a.couzin_dt
    for i, b in enumerate(boids):
        d, v = desired(a, src, i)
        c = src[i][0:3]
        if a.edges in ("bounce", "both"):
            d = unit(d)
            for k, side in enumerate(refcommon.edges(a)):
                if c[k] < a.wall_pad:
                    d[k] += a.wall_turn
                if c[k] > side - a.wall_pad:
                    d[k] -= a.wall_turn
        d = unit(d) if norm(d) > 0 else (v if norm(v) > 0 else [1.0, 0.0, 0.0])
        if a.couzin_noise > 0:
            d = noisy(a, d, i, t)
        h = unit(turn(v, d, most, a.dims) if norm(v) > 0 else d)
        vel = [x * length for x in h]
        pos = [c[k] + vel[k] for k in range(3)]
        if a.edges in ("wrap", "both"):
            for k, side in enumerate(refcommon.edges(a)):
                if pos[k] < 0:
                    pos[k] += side
                if pos[k] > side:
                    pos[k] -= side
        b[:] = pos + vel


def start(a, b):
    """The paper's groups start together: in a cube (2D: a square) of side
    8 r_r about the field's centre, at the speed; for N other than the
    paper's 100 the side is 8 r_r (N / 100)^(1/3) ((N / 100)^(1/2) in 2D):
    the paper's density."""
    if not hasattr(a, "n"):
        a.n = len(refcommon.read_frames(a.trajectory)[1][0])
    half = 4 * a.couzin_repulsion * (a.n / 100) ** (1 / a.dims)
    for k, side in enumerate(refcommon.edges(a)):
        if not abs(b[k] - side / 2) <= half:
            return "%s = %.17g is not within %g of the centre %g" % (refcommon.AXES[k], b[k], half, side / 2)
    if abs(norm(b[3:6]) - a.couzin_speed * a.couzin_dt) > 1e-12:
        return "speed %.17g px/step, not s dt = %.17g" % (norm(b[3:6]), a.couzin_speed * a.couzin_dt)
    return None


def hand_cases(a):
    """Steps worked out by hand, noise off, 3D, turn 40 deg/s x 0.1 s = 4 deg:

    1. Repulsion has priority: A at the origin heading +x, B at (0.5, 0.1,
       0) (zor), C at (5, 0, 0) heading +y (zoo).  d = -r_AB =
       -unit(0.5, 0.1, 0), 168.7 degrees away: A turns the most, 4
       degrees, from +x toward d's side, -y: (cos 4, -sin 4, 0).
       (dr_o = 13 in 1 and 2: C, 5 away, is in the zoo, r_o = 14.)
    2. Blind volume: the same with B behind A at (-0.5, 0.1, 0): the angle
       between +x and r_AB is 168.7 > 135 degrees, unseen; C heads +y:
       d = (0, 1, 0), 90 degrees away: A turns 4 degrees toward +y:
       (cos 4, sin 4, 0).
    3. Orientation and attraction as unit vectors: A heading +x sees D at
       (0, 0, 1.5) in the zoo heading +z (r_o = 2) and E, F at (10, 0, 0)
       and (10, 1, 0) in the zoa: d = 1/2 ((0, 0, 1) + unit(unit(10, 0, 0)
       + unit(10, 1, 0))), the mean of two unit vectors, not of the sums."""
    a.dims, a.update, a.edges, a.couzin_noise = 3, "synchronous", "none", 0.0
    a.width = a.height = a.depth = 1000.0
    a.couzin_repulsion, a.couzin_attraction, a.couzin_perception = 1.0, 14.0, 270.0
    a.couzin_turn, a.couzin_speed, a.couzin_dt = 40.0, 3.0, .1
    fails = []
    c4, s4, L = math.cos(math.radians(4)), math.sin(math.radians(4)), .3

    def lone(boids, want, what):
        step(a, boids, 0)
        got = [x / L for x in boids[0][3:6]]
        if not refcommon.close(got, want):
            fails.append("%s: heading %r, by hand %r" % (what, got, want))

    a.couzin_orientation = 13.0
    lone([[0.0, 0, 0, L, 0, 0], [.5, .1, 0, 0, L, 0], [5.0, 0, 0, 0, L, 0]], [c4, -s4, 0], "repulsion first")
    lone([[0.0, 0, 0, L, 0, 0], [-.5, .1, 0, 0, L, 0], [5.0, 0, 0, 0, L, 0]], [c4, s4, 0], "blind volume")
    a.couzin_orientation = 1.0
    boids = [[0.0, 0, 0, L, 0, 0], [0.0, 0, 1.5, 0, 0, L], [10.0, 0, 0, 0, L, 0], [10.0, 1, 0, 0, L, 0]]
    att = unit([1 + 10 / math.sqrt(101), 1 / math.sqrt(101), 0])
    want = unit([att[0] / 2, att[1] / 2, .5])
    # 4 degrees from +x toward want, in their plane: cos 4 x + sin 4 p, p = unit(0, want_y, want_z)
    p = unit([0, want[1], want[2]])
    lone(boids, [c4, s4 * p[1], s4 * p[2]], "orientation and attraction")
    return fails


if __name__ == "__main__":
    sys.exit(main())
