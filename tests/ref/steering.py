#!/usr/bin/env python3
"""The Unity steering behaviours (zklinger2000/unity-boids), from BoidManager.
UpdateBoids(), with Unity's Vector3 -- in 3D, as the article's program is;
a 2D file is the plane z = 0.  For each boid in list order (seeing the
boids already moved before it): UpdateNeighbors (others with Position !=
theirs -- Unity's approximate !=, closer than 1e-5 counts as equal -- at
Distance < NeighborDistance), then velocity = Velocity + Cohesion(steps, w)
+ Separation(steps, w) + Alignment(w) + Seek(target, w) + Socialize(boids,
w) + Arrival(target, slowing, max); LimitVelocity; LimitRotation(6.4
degrees) = Vector3.RotateTowards; position += velocity.  Unity's Normalize
is zero at lengths not above 1e-5.  Lengths in pixels at --steer-unit px
per Unity unit (the weights given here are the pixel ones, as boids takes
them).

RotateTowards(v, v', max_turn, max) as Unity documents it ("the current
vector will be rotated round toward the target direction by an angle of
maxRadiansDelta, although it will land exactly on the target rather than
overshoot"; the magnitude moves toward the target's): if |v| or |v'| is
not above Unity's 1e-5, MoveTowards(v, v', max); else with a = v/|v|,
b = v'/|v'|, theta = atan2(|a x b|, a.b): the direction is b when
theta <= max_turn, else a rotated by max_turn about the unit axis
k = (a x b)/|a x b| (Rodrigues' formula): the short way, in the plane of a
and b.  When there is no axis -- |a x b| below 1e-12, b is -a to rounding
-- Unity turns about a perpendicular chosen from a alone; boids' is the
2D "+angle" side, the turn toward p = unit(-a_y, a_x, 0), or (1, 0, 0) if a
is along z; with --steer-turn steady, whenever theta > 150 degrees, too.
The length moves from |v| toward |v'| by at most max.  On the plane z = 0
this is the 2D rotation, to rounding.

The target moves along boids' Lissajous figure (docs/MODEL.md; in the box
z = D/2 + amp_z D sin(freq_z th)) or is fixed at X,Y[,Z] (Z: D/2); the
article's scene has no walls (--edges none), boids' optional ones: bounce
adds +-wall_turn on each axis within wall_pad of the sides (from the
position before the move) as one more term of the sum, wrap adds or
subtracts the side after the move.  Start (--check-start): Unity's Start()
places boids at x = W/2 + ux u, y = H/2 - uy u (y up), z = D/2 + uz u, ux
and uz in [-1, 1], uy in [0, 2], all at InitialVelocity (--steer-v0).
Checks a boids trajectory; see refcommon.py.  --self-test checks
RotateTowards and one step of a 3D mini flock against hand computations."""
import cmath
import math
import random
import sys

import refcommon

REVERSED = 1e-12  # |a x b| below this: b is -a up to rounding


def norm(v):
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def scale(v, k):
    return (v[0] * k, v[1] * k, v[2] * k)


def add(*vs):
    """The sum of the vectors, added left to right."""
    x = y = z = 0.0
    for v in vs:
        x, y, z = x + v[0], y + v[1], z + v[2]
    return (x, y, z)


def sub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def normalize(v, eps):
    """Vector3.Normalize: zero when the length is not above eps."""
    m = norm(v)
    return (v[0] / m, v[1] / m, v[2] / m) if m > eps else (0.0, 0.0, 0.0)


def move_towards(cur, to, delta):
    """Vector3.MoveTowards: `to` when within delta, else delta along the way."""
    d = sub(to, cur)
    m = norm(d)
    return to if m <= delta or m == 0 else add(cur, scale(d, delta / m))


def plus_angle(a):
    """The 2D "+angle" side of unit vector a: unit(-a_y, a_x, 0), or +x when
    a is along z."""
    h = math.hypot(a[0], a[1])
    return (-a[1] / h, a[0] / h, 0.0) if h > 0 else (1.0, 0.0, 0.0)


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def rodrigues(v, k, th):
    """v rotated by th about the unit axis k."""
    c, s = math.cos(th), math.sin(th)
    return add(scale(v, c), scale(cross(k, v), s), scale(k, dot(k, v) * (1 - c)))


def rotate_towards(cur, to, max_rad, max_mag, eps, steady=False):
    """Vector3.RotateTowards in 3D, as the module's docstring states it."""
    lc, lt = norm(cur), norm(to)
    if not (lc > eps and lt > eps):
        return move_towards(cur, to, max_mag)
    a, b = scale(cur, 1 / lc), scale(to, 1 / lt)
    axis = cross(a, b)
    theta = math.atan2(norm(axis), dot(a, b))
    mag = lc + max(-max_mag, min(max_mag, lt - lc))
    if theta <= max_rad:
        return scale(b, mag)
    if norm(axis) < REVERSED or (steady and theta > math.radians(150)):
        p = plus_angle(a)
        return scale(add(scale(a, math.cos(max_rad)), scale(p, math.sin(max_rad))), mag)
    return scale(rodrigues(a, scale(axis, 1 / norm(axis)), max_rad), mag)


class Steering:
    """One step of the flock with the parameters in `a` (argparse's)."""

    def __init__(self, a):
        self.a = a
        self.eps = 1e-5 * a.steer_unit  # Unity's 1e-5, in pixels

    def target(self, t):
        a = self.a
        mid_z = a.depth / 2 if a.dims == 3 else 0.0  # a 2D file is the plane z = 0
        if a.target == "none":
            return None
        if a.target != "lissajous":
            xyz = [float(s) for s in a.target.split(",")]
            return (xyz[0], xyz[1], xyz[2] if len(xyz) > 2 and a.dims == 3 else mid_z)
        th = 2 * math.pi * t / a.target_period
        z = mid_z + (a.target_amp_z * a.depth * math.sin(a.target_freq_z * th) if a.dims == 3 else 0.0)
        return (a.width / 2 + a.target_amp[0] * a.width * math.cos(a.target_freq[0] * th),
                a.height / 2 + a.target_amp[1] * a.height * math.sin(a.target_freq[1] * th), z)

    def walls(self, P):
        """boids' bounce as a term of the sum: +-turn per axis near the sides."""
        a = self.a
        if a.edges not in ("bounce", "both"):
            return (0.0, 0.0, 0.0)
        w = [0.0, 0.0, 0.0]
        for c, side in enumerate(refcommon.edges(a)):
            if P[c] < a.wall_pad:
                w[c] += a.wall_turn
            if P[c] > side - a.wall_pad:
                w[c] -= a.wall_turn
        return tuple(w)

    def velocity(self, bi, src, T):
        """The new velocity of boid bi seeing the boids `src`: the listing's sum,
        LimitVelocity, LimitRotation."""
        a, eps = self.a, self.eps
        P, V = tuple(src[bi][0:3]), tuple(src[bi][3:6])
        nb = []
        for o in src:
            d = norm(sub(o[0:3], P))
            if not d < eps and d < a.steer_radius:
                nb.append((tuple(o[0:3]), tuple(o[3:6]), d))
        zero = (0.0, 0.0, 0.0)
        coh = sep = ali = seek = soc = arr = zero
        if nb:
            pc = scale(add(*(q for q, _, _ in nb)), 1 / len(nb))
            coh = scale(sub(pc, P), a.steer_cohesion_weight / a.steer_cohesion_steps)
            for q, _, d in nb:
                sep = add(sep, scale(normalize(sub(P, q), eps), 1 / d ** 2 / a.steer_separation_steps))
            pv = scale(add(*(w for _, w, _ in nb)), 1 / len(nb))
            ali = scale(normalize(sub(pv, V), eps), a.steer_alignment_weight)
        sep = scale(sep, a.steer_separation_weight)
        if T is not None and a.steer_seek_weight >= 1e-4 * a.steer_unit:
            seek = sub(scale(normalize(sub(T, P), eps), a.steer_seek_weight), V)
        if not nb and a.steer_socialize_weight != 0 and len(src) > 1:
            others = scale(add(*(o[0:3] for i, o in enumerate(src) if i != bi)), 1 / (len(src) - 1))
            soc = scale(normalize(sub(others, P), eps), a.steer_socialize_weight)
        if T is not None and a.steer_arrival_radius >= 1e-4 * a.steer_unit:
            off = sub(T, P)
            d = norm(off)
            speed = min(a.steer_arrival_speed * d / a.steer_arrival_radius, a.steer_arrival_speed)
            arr = sub(scale(off, speed / d) if d > 0 else zero, V)
        v = add(V, coh, sep, ali, seek, soc, arr, self.walls(P))
        if norm(v) > a.steer_max_speed:
            v = scale(v, a.steer_max_speed / norm(v))
        return rotate_towards(V, v, math.radians(a.steer_max_turn), a.steer_max_speed, eps,
                              a.steer_turn == "steady")

    def step(self, boids, t):
        a = self.a
        T = self.target(t)
        src = boids if a.update == "sequential" else [list(b) for b in boids]
        for bi, b in enumerate(boids):
            v = self.velocity(bi, src, T)
            p = list(add(src[bi][0:3], v))
            if a.edges in ("wrap", "both"):
                for c, side in enumerate(refcommon.edges(a)):
                    if p[c] < 0:
                        p[c] += side
                    elif p[c] > side:
                        p[c] -= side
            b[:] = p + list(v)

    def start(self, i, b):
        # Random.Range(-1, 1), Random.Range(0, 2) (y up), Random.Range(-1, 1)
        a = self.a
        u = ((b[0] - a.width / 2) / a.steer_unit, (a.height / 2 - b[1]) / a.steer_unit,
             (b[2] - a.depth / 2) / a.steer_unit)
        box = ((-1, 1), (0, 2), (-1, 1))
        for c in range(a.dims):
            if not box[c][0] - 1e-12 <= u[c] <= box[c][1] + 1e-12:
                return "outside Unity's start box: u%s = %.17g" % ("xyz"[c], u[c])
        v0 = a.steer_v0[:a.dims]
        if [b[3 + c] for c in range(a.dims)] != v0:
            return "not at InitialVelocity %s" % (tuple(v0),)
        return None


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
    p.add_argument("--steer-turn", default="short", choices=["short", "steady"])
    p.add_argument("--steer-v0", type=float, nargs=3, default=[0.0, 0.0, 0.0], metavar=("VX", "VY", "VZ"),
                   help="InitialVelocity, px/step (checked by --check-start)")
    p.add_argument("--target", default="lissajous", help="lissajous, none, X,Y or X,Y,Z")
    p.add_argument("--target-amp", type=float, nargs=2, default=[.3, .3])
    p.add_argument("--target-freq", type=float, nargs=2, default=[3, 2])
    p.add_argument("--target-amp-z", type=float, default=.3)
    p.add_argument("--target-freq-z", type=float, default=1)
    p.add_argument("--target-period", type=float, default=1200)
    p.add_argument("--edges", default="none", choices=["bounce", "wrap", "both", "none"])
    p.add_argument("--wall-pad", type=float, default=50)
    p.add_argument("--wall-turn", type=float, default=.5)
    a = p.parse_args()
    model = Steering(a)
    return refcommon.run(a, model.step, model.start, lambda: self_test(a))


# ------------------------------------------------------------- self-test

def self_test(a):
    """RotateTowards' hand cases and one step of a 3D mini flock; returns
    the failures."""
    fails = []

    def check(what, got, want, tol=1e-12):
        if not refcommon.close(got, want, tol):
            fails.append("%s: %r, want %r" % (what, tuple(got), tuple(want)))

    eps, turn = 1e-5 * 25, math.radians(6.4)
    # A 90-degree turn limited to 6.4 degrees: v = (1, 2, 2) (|v| = 3) toward
    # v' = (4, 2, -4) (|v'| = 6, v.v' = 4 + 4 - 8 = 0), max length step 1:
    # the result is 6.4 degrees from v and 83.6 from v', in their plane
    # ((v x v').r = 0), of length 3 + min(6 - 3, 1) = 4.
    v, w = (1.0, 2.0, 2.0), (4.0, 2.0, -4.0)
    r = rotate_towards(v, w, turn, 1.0, eps)
    check("90-degree turn: length", [norm(r)], [4.0])
    check("90-degree turn: angle to v", [math.acos(dot(r, v) / 4 / 3)], [turn])
    check("90-degree turn: angle to v'", [math.acos(dot(r, w) / 4 / 6)], [math.pi / 2 - turn])
    vxw = (v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0])
    check("90-degree turn: in the plane of v and v'", [dot(vxw, r)], [0.0])
    # By hand: a = (1, 2, 2)/3, p = unit(b - 0 a) = (2, 1, -2)/3, so
    # r = 4 (cos 6.4 (1, 2, 2) + sin 6.4 (2, 1, -2)) / 3.
    c, s = math.cos(turn), math.sin(turn)
    check("90-degree turn: by hand", r, [4 * (c * 1 + s * 2) / 3, 4 * (c * 2 + s * 1) / 3,
                                          4 * (c * 2 - s * 2) / 3])
    # The length step is limited both ways: toward a shorter v' by at most 1.
    check("shorter: length", [norm(rotate_towards((0.0, 0.0, 3.0), (0.5, 0.0, 0.0), turn, 1.0, eps))], [2.0])
    # An exact reversal, v' = -2 v: p = unit(-a_y, a_x, 0) = (-2, 1, 0)/sqrt 5
    # (a = (1, 2, 2)/3), length 3 + 1.
    r = rotate_towards(v, scale(v, -2.0), turn, 1.0, eps)
    want = [4 * (c * 1 / 3 - s * 2 / math.sqrt(5)), 4 * (c * 2 / 3 + s / math.sqrt(5)), 4 * c * 2 / 3]
    check("reversal", r, want)
    # ... and v' = -0.7 v, where b is -a only to rounding: the same turn, at
    # length 3 - min(3 - 2.1, 1) = 2.1.
    check("reversal, -0.7 v", rotate_towards(v, scale(v, -.7), turn, 1.0, eps), scale(want, 2.1 / 4))
    # ... a reversal along z turns toward +x: v = (0, 0, 5), v' = (0, 0, -5).
    check("reversal along z", rotate_towards((0.0, 0.0, 5.0), (0.0, 0.0, -5.0), turn, 3.75, eps),
          [5 * s, 0.0, 5 * c])
    # A small turn lands exactly on v': (3, .1, .1) is 2.7 degrees from (3, 0, 0).
    check("small turn", rotate_towards((3.0, 0.0, 0.0), (3.0, .1, .1), turn, 3.75, eps), [3.0, .1, .1], 1e-15)
    # ... and on its direction at the limited length: 3 + .5 (max .5).
    check("small turn, length limited", rotate_towards((3.0, 0.0, 0.0), (6.0, .2, .2), turn, .5, eps),
          scale((6.0, .2, .2), 3.5 / math.sqrt(36.08)))
    # Either vector at or below Unity's 1e-5 (in px: 2.5e-4): MoveTowards.
    check("from rest", rotate_towards((0.0, 0.0, 0.0), (1.0, -2.0, 2.0), turn, 3.75, eps), [1.0, -2.0, 2.0])
    check("from almost rest", rotate_towards((2e-4, 0.0, 0.0), (0.0, 0.0, 1.0), turn, 3.75, eps),
          [0.0, 0.0, 1.0])
    check("to rest, slowing by at most 1", rotate_towards((0.0, 4.0, 0.0), (0.0, 0.0, 0.0), turn, 1.0, eps),
          [0.0, 3.0, 0.0])
    # steady: at 162.5 degrees, the short way turns toward (0, -.1, .3), steady toward +angle, (0, 1, 0).
    w = (-1.0, -.1, .3)
    check("short way", rotate_towards((2.0, 0.0, 0.0), w, turn, 0.0, eps),
          [2 * c, 2 * s * -.1 / math.sqrt(.1), 2 * s * .3 / math.sqrt(.1)])
    check("steady", rotate_towards((2.0, 0.0, 0.0), w, turn, 0.0, eps, True), [2 * c, 2 * s, 0.0])
    # On the plane z = 0 it is the 2D rotation (the phase of v'/v), z staying 0.
    rng = random.Random(19)
    for _ in range(1000):
        v2 = complex(rng.uniform(-4, 4), rng.uniform(-4, 4))
        w2 = complex(rng.uniform(-4, 4), rng.uniform(-4, 4))
        ang = cmath.phase(w2 / v2)
        mag = abs(v2) + max(-1, min(1, abs(w2) - abs(v2)))
        flat = cmath.rect(mag, cmath.phase(v2) + (ang if abs(ang) <= turn else math.copysign(turn, ang)))
        r = rotate_towards((v2.real, v2.imag, 0.0), (w2.real, w2.imag, 0.0), turn, 1.0, eps)
        # near a reversal the side to turn to is ill-conditioned in both forms
        tol = 1e-13 if math.pi - abs(ang) > .01 else 1e-9
        if r[2] != 0.0 or not refcommon.close(r[:2], [flat.real, flat.imag], tol):
            fails.append("plane: %r toward %r: %r, 2D %r" % (v2, w2, r, flat))
            break
    fails += near_reversals(turn, eps)
    fails += mini_flock(a)
    return fails


def angle(u, v):
    return math.atan2(norm(cross(u, v)), dot(u, v))


def near_reversals(turn, eps):
    """Pairs 1e-16 to 1e-1 rad from a reversal, exact reversals and random
    pairs: the turn is the limit, the length |v| moved toward |v'| by at
    most 1, and the angle left to v' is the rest (the short way)."""
    rng = random.Random(30)
    for i in range(3000):
        a = (rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1))
        a = scale(a, rng.uniform(.5, 4) / norm(a))
        if i % 3 == 0:  # exact: -2^k v
            b = scale(a, -2.0 ** rng.randint(-2, 1))
        else:
            delta = 10 ** rng.uniform(-16, -1) if i % 3 == 1 else rng.uniform(0, math.pi)
            k = cross(a, (rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)))
            b = scale(rodrigues(scale(a, -1 / norm(a)), scale(k, 1 / norm(k)), delta), rng.uniform(.5, 4))
        r = rotate_towards(a, b, turn, 1.0, eps)
        theta, want = angle(a, b), norm(a) + max(-1, min(1, norm(b) - norm(a)))
        left = angle(r, b) - (theta - turn if theta > turn else 0)
        kn = norm(cross(scale(a, 1 / norm(a)), scale(b, 1 / norm(b))))
        if (abs(norm(r) - want) > 1e-12 * want or abs(angle(a, r) - min(theta, turn)) > 1e-9
                or (kn >= REVERSED and abs(left) > 1e-9 + 1e-15 / kn)):
            return ["near reversal: %r toward %r: %r (turned %.17g, length %.17g, %.3g left over)"
                    % (a, b, r, angle(a, r), norm(r), left)]
    return []


def mini_flock(a):
    """One step of four boids off the plane, target none, the defaults
    (unit 25, radius 20, cohesion 100 steps x .05, separation 1 step x
    156.25, alignment .25, max 3.75 px/step, 6.4 degrees), sequential.

    A (100, 100, 100) v (1, 0, 0)       B (100, 106, 108) v (0, 0, 2)
    C (101, 100, 125) v (0, 1, 0)       D (100, 100, 100.0001) v (0, 0, 1)
    A's neighbours: B at sqrt(36 + 64) = 10 < 20; not C (1 px away in x and
    y, but sqrt(1 + 625) = 25.02 in 3D); not D (1e-4 px < 1e-5 u = 2.5e-4
    px: Unity's != calls them equal).
      coh = ((100, 106, 108) - A) / 100 * .05 = (0, 6, 8) * .0005
          = (0, .003, .004)
      sep = unit(A - B) / 10^2 / 1 * 156.25 = (0, -.6, -.8) * 1.5625
          = (0, -.9375, -1.25)
      ali = unit((0, 0, 2) - (1, 0, 0)) * .25 = (-1, 0, 2) / sqrt 5 * .25
          = (-.111803..., 0, .223606...)
      v'  = (1 - .25/sqrt 5, .003 - .9375, .004 - 1.25 + .5/sqrt 5)
          = (.888196..., -.9345, -1.022393...), |v'| = 1.645439... < 3.75
    RotateTowards((1, 0, 0), v'): cos theta = .888196... / 1.645439... =
    .539792..., theta = 57.33 degrees > 6.4, so a = (1, 0, 0), p =
    unit(0, -.9345, -1.022393...) (b - (a.b) a drops x), and the length is
    |v'| (|v'| - 1 = .645 < 3.75):
      v   = |v'| (cos 6.4, sin 6.4 p_y, sin 6.4 p_z)
          = (1.635185..., -.123744..., -.135382...)
    and A moves to A + v = (101.635185..., 99.876255..., 99.864617...)."""
    a.dims, a.width, a.height, a.depth = 3, 640.0, 360.0, 360.0
    a.target, a.update, a.edges = "none", "sequential", "none"
    boids = [[100.0, 100.0, 100.0, 1.0, 0.0, 0.0], [100.0, 106.0, 108.0, 0.0, 0.0, 2.0],
             [101.0, 100.0, 125.0, 0.0, 1.0, 0.0], [100.0, 100.0, 100.0001, 0.0, 0.0, 1.0]]
    Steering(a).step(boids, 0)
    k = .25 / math.sqrt(5)
    w = (1 - k, .003 - .9375, .004 - 1.25 + 2 * k)
    m, py, pz = norm(w), w[1] / math.hypot(w[1], w[2]), w[2] / math.hypot(w[1], w[2])
    c, s = math.cos(math.radians(6.4)), math.sin(math.radians(6.4))
    v = (m * c, m * s * py, m * s * pz)
    want = [100 + v[0], 100 + v[1], 100 + v[2]] + list(v)
    if not refcommon.close(boids[0], want):
        return ["mini flock, boid A: %r, by hand %r" % (boids[0], want)]
    return []


if __name__ == "__main__":
    sys.exit(main())
