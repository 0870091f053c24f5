#!/usr/bin/env python3
"""U. Wilensky's NetLogo Flocking model (1998), from its procedures, with
NetLogo's own primitives written out:

  to go:     ask turtles [ flock ]  then  ask turtles [ fd 1 ]
  to flock:  set flockmates other turtles in-radius vision
             if any? flockmates [
               set nearest-neighbor min-one-of flockmates [distance myself]
               ifelse distance nearest-neighbor < minimum-separation
                 [ separate ] [ align cohere ] ]
  separate:  turn-away ([heading] of nearest-neighbor) max-separate-turn
  align:     turn-towards (atan sum [dx] sum [dy] of flockmates) max-align-turn
             (the own heading when both sums are 0)
  cohere:    turn-towards (atan of the means of sin and cos (towards myself
             + 180)) max-cohere-turn (the own heading when both are 0)
  turn-towards h m:  turn-at-most (subtract-headings h heading) m
  turn-away h m:     turn-at-most (subtract-headings heading h) m
  turn-at-most t m:  rt m or lt m when |t| > m, else rt t

Headings in degrees clockwise from north; dx = sin heading, dy = cos
heading; atan x y is the heading of (x, y); subtract-headings a b is a - b
brought into (-180, 180]; distances and towards the short way round the
wrapping world; fd 1 moves one patch and wraps.  From crt's whole degrees
the turns of 1.5, 3 and 5 degrees keep many headings on a lattice where
two turtles fly exactly opposite, and subtract-headings says 180 (a right
turn); boids keeps headings as vectors, so a difference within 1e-9
degrees of a half turn is taken as one, and a sum of headings (or of
directions) shorter than 1e-9 as none (docs/MODEL.md).  `ask` takes the turtles
in a new random order every tick, headings changing as it goes (a later
turtle sees the earlier ones' new headings); --update synchronous has
everybody read the tick's first headings instead.

boids' coordinates: a patch is a pixel, x to the right, y DOWN, so NetLogo's
ycor is -y: a turtle's velocity in the trajectory is (sin h, -cos h).  The
order (docs/MODEL.md, "netlogo"): Fisher and Yates's shuffle of 0 .. n-1,
for i = n-1 down to 1 swapping i with floor(u (i + 1)) (at most i),
u = noise01(seed, tick, 2^62 + i), noise01 being SplitMix64's finaliser
chained over seed, tick and key, its top 53 bits times 2^-53.  The 3D rules
(docs/MODEL.md): the same with direction vectors, each turn in the plane
of the two directions; two exactly opposite (u.t < 0, |u x t| < 1e-9)
have no plane, and the turn goes toward (-u_y, u_x, 0).  Checks a boids trajectory."""
import math
import sys

import refcommon

ZERO = 1e-9  # a sum of headings (or of directions) this short is none
noise01 = refcommon.noise01


def atan_nl(x, y):
    """NetLogo's atan x y: the heading, degrees clockwise from north, of (x, y)."""
    return math.degrees(math.atan2(x, y)) % 360


def subtract_headings(a, b):
    """a - b in (-180, 180]; within 1e-9 of a half turn it is 180 (see below)."""
    d = (a - b) % 360
    if abs(d - 180) <= 1e-9:
        return 180.0
    return d - 360 if d > 180 else d


def turn_at_most(h, turn, most):
    if abs(turn) > most:
        return (h + (most if turn > 0 else -most)) % 360
    return (h + turn) % 360


# --- the plane: headings in degrees, as NetLogo keeps them ---------------

def flock2(a, me, mates, h, heading_of):
    """The new heading of a turtle at `me` with heading h; mates: (j, offset
    in boids' axes, distance) of each flockmate."""
    if not mates:
        return h
    nearest = min(mates, key=lambda m: (m[2], m[0]))  # ties: the lower index
    if nearest[2] < a.netlogo_minimum_separation:
        return turn_at_most(h, subtract_headings(h, heading_of(nearest[0])), a.netlogo_max_separate_turn)
    xs = sum(math.sin(math.radians(heading_of(j))) for j, _, _ in mates)
    ys = sum(math.cos(math.radians(heading_of(j))) for j, _, _ in mates)
    if math.hypot(xs, ys) > ZERO:
        h = turn_at_most(h, subtract_headings(atan_nl(xs, ys), h), a.netlogo_max_align_turn)
    # towards the mate: (dx, -dy) in NetLogo's axes (ycor up); the mean's direction is the sum's
    tw = [atan_nl(o[0], -o[1]) for j, o, d in mates if d > 0]
    xs = sum(math.sin(math.radians(t)) for t in tw)
    ys = sum(math.cos(math.radians(t)) for t in tw)
    if math.hypot(xs, ys) > ZERO:
        h = turn_at_most(h, subtract_headings(atan_nl(xs, ys), h), a.netlogo_max_cohere_turn)
    return h


# --- the box: unit direction vectors --------------------------------------

def unit(v):
    m = math.sqrt(sum(x * x for x in v))
    return [x / m for x in v] if m > 0 else [0.0, 0.0, 0.0]


def cross(p, q):
    return [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]]


def rotate_toward(u, w, ang):
    """u turned by ang radians toward w, perpendicular to u (Rodrigues about u x w)."""
    k = unit(cross(u, w))
    ku = cross(k, u)
    return [u[c] * math.cos(ang) + ku[c] * math.sin(ang) for c in range(3)]


def angle(u, t):
    """The angle between unit vectors, atan2(|u x t|, u.t): exact for small ones."""
    return math.atan2(math.sqrt(sum(x * x for x in cross(u, t))), sum(u[c] * t[c] for c in range(3)))


def opposite(u, t):
    """u and t (unit) exactly opposite: u.t < 0 and |u x t| < 1e-9 (docs/MODEL.md)."""
    n = cross(u, t)
    return sum(u[c] * t[c] for c in range(3)) < 0 and math.sqrt(sum(x * x for x in n)) < 1e-9


def rotate_plus(u, ang):
    """u turned by ang toward the plane's +angle direction (-u_y, u_x, 0), or +x
    when u is along z: an exact reversal's turn, as the plane's goes right."""
    p = [-u[1], u[0], 0.0]
    p = unit(p) if math.sqrt(p[0] ** 2 + p[1] ** 2) > 1e-150 else [1.0, 0.0, 0.0]
    return [u[c] * math.cos(ang) + p[c] * math.sin(ang) for c in range(3)]


def toward3(u, t, most):
    if math.sqrt(sum(x * x for x in t)) <= ZERO:
        return u
    t = unit(t)
    if opposite(u, t):
        return rotate_plus(u, most)
    return rotate_toward(u, t, min(angle(u, t), most))


def flock3(a, mates, u, vel_of):
    if not mates:
        return u
    nearest = min(mates, key=lambda m: (m[2], m[0]))
    deg = math.pi / 180
    if nearest[2] < a.netlogo_minimum_separation:
        n = vel_of(nearest[0])
        if opposite(u, n):
            return rotate_plus(u, a.netlogo_max_separate_turn * deg)
        th = angle(u, n)
        if th == 0:
            return u
        return rotate_toward(u, [-x for x in n], min(th, a.netlogo_max_separate_turn * deg))
    head = [sum(vel_of(j)[c] for j, _, _ in mates) for c in range(3)]
    u = toward3(u, head, a.netlogo_max_align_turn * deg)
    tw = [0.0, 0.0, 0.0]
    for j, o, d in mates:
        if d > 0:
            tw = [tw[c] + o[c] / d for c in range(3)]
    return toward3(u, tw, a.netlogo_max_cohere_turn * deg)


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--netlogo-vision", type=float, default=3)
    p.add_argument("--netlogo-minimum-separation", type=float, default=1)
    p.add_argument("--netlogo-max-align-turn", type=float, default=5)
    p.add_argument("--netlogo-max-cohere-turn", type=float, default=3)
    p.add_argument("--netlogo-max-separate-turn", type=float, default=1.5)
    p.set_defaults(size="71x71")
    a = p.parse_args()
    return refcommon.run(a, lambda boids, t: step(a, boids, t), lambda i, b: start(a, b),
                         lambda: hand_cases(a))


def heading(b):
    """NetLogo's heading of a boid: its velocity (vx, vy) is (sin h, -cos h)."""
    return atan_nl(b[3], -b[4])


def step(a, boids, t):
    sides = refcommon.edges(a)
    n = len(boids)
    first = [list(b) for b in boids]
    live = boids if a.update == "sequential" else first  # whose headings a turtle reads
    who = refcommon.turns(a.seed, t, n) if a.update == "sequential" else range(n)
    new = [None] * n
    for i in who:
        me = first[i]
        mates = []
        for j, o in enumerate(first):  # positions do not change while turning
            off = [refcommon.min_image(o[c] - me[c], sides[c]) if c < a.dims else 0.0 for c in range(3)]
            d = math.sqrt(off[0] ** 2 + off[1] ** 2 + off[2] ** 2)
            if j != i and d <= a.netlogo_vision:
                mates.append((j, off, d))
        if a.dims == 2:
            h = flock2(a, me, mates, heading(live[i]), lambda j: heading(live[j]))
            v = [math.sin(math.radians(h)), -math.cos(math.radians(h)), 0.0]
        else:
            v = unit(flock3(a, mates, live[i][3:6], lambda j: live[j][3:6]))
        new[i] = v
        if a.update == "sequential":
            boids[i][3:6] = v
    for i, b in enumerate(boids):  # ask turtles [ fd 1 ]
        pos = [first[i][c] + new[i][c] for c in range(3)]
        for c in range(a.dims):
            if pos[c] < 0:
                pos[c] += sides[c]
            elif pos[c] >= sides[c]:
                pos[c] -= sides[c]
            if pos[c] >= sides[c]:
                pos[c] = 0.0
        b[:] = pos + new[i]


def start(a, b):
    why = refcommon.outside_box(a, b)
    if why:
        return "not at random-xcor random-ycor: " + why
    if abs(math.sqrt(b[3] ** 2 + b[4] ** 2 + b[5] ** 2) - 1) > 1e-12:
        return "speed %.17g, not 1 patch a tick" % math.sqrt(b[3] ** 2 + b[4] ** 2 + b[5] ** 2)
    if a.dims == 2 and abs(heading(b) - round(heading(b))) > 1e-9 and abs(heading(b) - 360) > 1e-9:
        return "heading %.17g is not a whole number of degrees (crt's)" % heading(b)
    return None


def hand_cases(a):
    """Ticks worked out by hand in a 20 x 20 world (2D, synchronous):

    1. Separate: A at (10, 10) heading 0 (north: velocity (0, -1)), B at
       (10.5, 10) heading 90: B is the nearest, 0.5 < 1: A turns away from
       90 by subtract-headings 0 90 = -90, at most 1.5: lt 1.5, heading
       358.5.  B's nearest is A, heading 0: subtract-headings 90 0 = 90:
       rt 1.5, heading 91.5.
    2. Align, then cohere: A at (10, 10) heading 0, B at (12, 10) heading
       90 (2 patches east, within vision 3, not too close): align toward
       atan 1 0 = 90, rt 5: heading 5; cohere toward B, towards = 90:
       subtract-headings 90 5 = 85, rt 3: heading 8.
    3. The world wraps: A at (0.5, 10) heading 0, B at (19, 10) heading 180,
       1.5 patches west of A across the edge: align toward 180
       (subtract-headings 180 0 = 180 > 5: rt 5), then cohere toward 270
       (subtract-headings 270 5 = -95: lt 3): heading 2.  A moves one
       patch: x = 0.5 + sin 2, y = 10 - cos 2."""
    a.dims, a.update, a.width, a.height, a.depth = 2, "synchronous", 20.0, 20.0, 20.0
    fails = []

    def vel(h):
        return [math.sin(math.radians(h)), -math.cos(math.radians(h)), 0.0]

    def tick(boids, want, what):
        step(a, boids, 0)
        for i, h in enumerate(want):
            if abs(subtract_headings(heading(boids[i]), h)) > 1e-9:
                fails.append("%s: turtle %d heading %.12g, by hand %g" % (what, i, heading(boids[i]), h))

    tick([[10.0, 10, 0] + vel(0), [10.5, 10, 0] + vel(90)], [358.5, 91.5], "separate")
    tick([[10.0, 10, 0] + vel(0), [12.0, 10, 0] + vel(90)], [8], "align and cohere")
    boids = [[0.5, 10, 0] + vel(0), [19.0, 10, 0] + vel(180)]
    tick(boids, [2], "across the edge")
    want = [0.5 + math.sin(math.radians(2)), 10 - math.cos(math.radians(2))]
    if not refcommon.close(boids[0][0:2], want):
        fails.append("fd 1 across the edge: %r, by hand %r" % (boids[0][0:2], want))
    return fails


if __name__ == "__main__":
    sys.exit(main())
