#!/usr/bin/env python3
"""The Flocking model of the ABM frameworks comparison (JuliaDynamics'
ABMFrameworksComparison), written from its declaration: birds in a periodic
2D space, activated "in sequence one by one in a random order (a new random
order must be generated at each step)"; once activated a bird

  - finds all neighbours within visual_distance (euclidean distance less
    than or equal to it, the periodicity of the space respected), itself
    not among them;
  - for each: heading = neighbour.pos - bird.pos (the short way round the
    torus), cohere += heading, separate -= heading when the distance is
    below separation, match += the neighbour's vel;
  - N = max(N, 1); cohere = cohere / N * cohere_factor, separate /
    N * separate_factor, match / N * match_factor;
  - vel = (vel + cohere + separate + match) / 2, normalised (a zero vector
    stays zero), and moves by vel * speed, wrapping.

Velocities in a boids trajectory are per step (vel * speed).  The order is
boids' documented draw (docs/MODEL.md, "abm"), so that this program and
boids take the same turns: 0..n-1 shuffled by Fisher and Yates from the
top, j = floor(u (i + 1)) (at most i), u = noise01(seed, t, 2^62 + i), the
keyed draw: mix(mix(mix(seed) ^ t) ^ key), mix SplitMix64's finaliser, its
top 53 bits times 2^-53 (refcommon.turns).
--update synchronous has every bird read the step's start instead (no
order).  Positions are taken into [0, L) as x - L floor(x / L) (then + L
below 0, - L at L).  In 3D (z, vz columns) every vector has a z and the
box wraps on z too.  Checks a boids trajectory."""
import math
import sys

import refcommon


def main():
    p = refcommon.parser(__doc__)
    p.add_argument("--abm-vision", type=float, default=5)
    p.add_argument("--abm-separation", type=float, default=1)
    p.add_argument("--abm-cohere", type=float, default=0.03)
    p.add_argument("--abm-separate", type=float, default=0.015)
    p.add_argument("--abm-match", type=float, default=0.05)
    p.add_argument("--abm-speed", type=float, default=1)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    def step(birds, t):
        sides = refcommon.edges(a)
        dims = len(sides)
        for b in birds:
            for c, side in enumerate(sides):
                b[c] = refcommon.torus_wrap(b[c], side)
        if a.update == "sequential":
            src, turns = birds, refcommon.turns(a.seed, t, len(birds))
        else:
            src, turns = [list(b) for b in birds], range(len(birds))
        for i in turns:
            b = birds[i]
            n = 0
            coh, sep, mat = [0.0] * 3, [0.0] * 3, [0.0] * 3
            for j, o in enumerate(src):
                if j == i:
                    continue
                h = [refcommon.min_image(o[c] - src[i][c], side) for c, side in enumerate(sides)] + [0.0] * (3 - dims)
                d = math.sqrt(sum(x * x for x in h))
                if not d <= a.abm_vision:
                    continue
                n += 1
                coh = [coh[k] + h[k] for k in range(3)]
                if d < a.abm_separation:
                    sep = [sep[k] - h[k] for k in range(3)]
                mat = [mat[k] + o[3 + k] / a.abm_speed for k in range(3)]
            m = max(n, 1)
            vel = [src[i][3 + k] / a.abm_speed for k in range(3)]
            vel = [(vel[k] + coh[k] / m * a.abm_cohere + sep[k] / m * a.abm_separate +
                    mat[k] / m * a.abm_match) / 2 for k in range(3)]
            norm = math.sqrt(sum(x * x for x in vel))
            if norm > 0:
                vel = [x / norm for x in vel]
            v = [x * a.abm_speed for x in vel]
            b[:] = [refcommon.torus_wrap(src[i][c] + v[c], side) for c, side in enumerate(sides)] + [0.0] * (3 - dims) + v

    def start(i, b):
        why = refcommon.outside_box(a, b)
        if why:
            return "position outside the space: " + why
        for c in range(3, 3 + a.dims):
            if not -a.abm_speed <= b[c] < a.abm_speed:
                return "velocity component %.17g outside [-speed, speed)" % b[c]
        return None

    def self_test():
        return hand_cases(a, step)

    return refcommon.run(a, step, start, self_test)


def hand_cases(a, step):
    """Cases worked out by hand (the defaults: vision 5, separation 1,
    factors .03, .015, .05, speed 1), every bird reading the step's start:

    A at (1, 50) with vel (1, 0) and B at (99.95, 50) with vel (0, 1) in a
    100 x 100 space: B is 1.05 away across the side (heading -1.05 from A,
    +1.05 from B), not closer than the separation.  A: cohere = (-1.05, 0)
    x .03 = (-.0315, 0), match = (0, 1) x .05: vel = ((1 - .0315) / 2,
    .05 / 2), normalised: (.9685, .05) / |(.9685, .05)|, and A moves by it.
    B: cohere (.0315, 0), match (.05, 0): ((.0315 + .05) / 2, 1 / 2)
    normalised; B at 99.95 + .08... passes 100 and lands at .03...  A bird
    C at (50, 50), 0.5 from D at (50.5, 50): separate = -(0.5, 0) x .015."""
    fails = []
    a.update, a.dims, a.width, a.height, a.depth = "synchronous", 2, 100.0, 100.0, 100.0
    a.abm_vision, a.abm_separation, a.abm_speed = 5.0, 1.0, 1.0
    a.abm_cohere, a.abm_separate, a.abm_match = .03, .015, .05
    birds = [[1.0, 50.0, 0.0, 1.0, 0.0, 0.0], [99.95, 50.0, 0.0, 0.0, 1.0, 0.0]]
    step(birds, 0)
    va = [.9685, .05]
    m = math.hypot(*va)
    va = [x / m for x in va]
    vb = [.0815, 1.0]
    m = math.hypot(*vb)
    vb = [x / m for x in vb]
    if not refcommon.close(birds[0], [1 + va[0], 50 + va[1], 0, va[0], va[1], 0]):
        fails.append("A across the side: %r, by hand %r" % (birds[0], va))
    if not refcommon.close(birds[1], [99.95 + vb[0] - 100, 50 + vb[1], 0, vb[0], vb[1], 0]):
        fails.append("B across the side: %r, by hand %r" % (birds[1], vb))
    birds = [[50.0, 50.0, 0.0, 0.0, 1.0, 0.0], [50.5, 50.0, 0.0, 0.0, 1.0, 0.0]]
    step(birds, 0)
    vc = [(.5 * .03 - .5 * .015) / 2, (1 + .05) / 2]
    m = math.hypot(*vc)
    if not refcommon.close(birds[0][3:5], [vc[0] / m, vc[1] / m]):
        fails.append("separation: %r, by hand %r" % (birds[0], vc))
    o = refcommon.turns(1, 3, 5)
    if sorted(o) != list(range(5)):
        fails.append("the order is not a permutation: %r" % o)
    return fails


if __name__ == "__main__":
    sys.exit(main())
