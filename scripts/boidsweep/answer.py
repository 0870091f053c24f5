"""The answer first: what a sweep found, in words and as DIR/answer.json.

With a goal (--goal METRIC:max|min), answer() names the best point (the
largest or smallest mean over its complete runs), its value and interval,
the runner-up, and whether the best is told apart from each other point:
Welch's t-test (two-sided) of the best against every other point with two
runs or more, the p-values adjusted for every pair of the points compared,
as the data picked the best (stats.against_best()), at 95%; for the
closest point it cannot tell apart, the runs a point that would (a Welch
test's power of 80% at the difference and spreads seen, if the difference
is real).  --replicates auto's looks divide the level by their number
(Bonferroni over the looks).  Without a goal: each metric's points with
the largest and smallest mean.
"""
import math

from .common import METRICS
from .grid import swept_names
from .stats import REPLICATES_MOST, against_best, bounds_of, describe, last_step, pairs, replicates_needed, welch

LEVEL = 0.95
POWER = 0.8


def groups(spec, rows, column):
    """[(label, {param: value}, [values])]: the complete runs' values of
    column per point of the parameters other than the seed, in table order."""
    by = [k for k in swept_names(spec) if k != "seed"]
    got = {}
    for r in rows:
        key = tuple(r.get(k) for k in by)
        vals = got.setdefault(key, [])
        x = r.get(column)
        if r.get("status") == "complete" and isinstance(x, (int, float)) and math.isfinite(x):
            vals.append(x)
    return [(",".join(f"{k}={v}" for k, v in zip(by, key)) or "every run", dict(zip(by, key)), vals)
            for key, vals in got.items()]


def number(x):
    return f"{x:.4g}" if x is not None else "none"


def point_json(label, values, xs, column):
    d = describe(xs, bounds_of(column))
    return {"point": label, "values": values, "n": d["n"], "mean": d["mean"], "sd": d["sd"],
            "ci95": [d["ci95_lo"], d["ci95_hi"]]}


def mean(g):
    return math.fsum(g[2]) / len(g[2])


def runs(n):
    return f"{n} run{'s' if n != 1 else ''}"


def compare(best, others):
    """Welch's t-test of the best against each other point with 2 runs or
    more, adjusted by against_best(): [(point, p, adjusted p)] in the
    others' order."""
    testable = [o for o in others if len(o[2]) >= 2]
    ps = [welch(best[2], o[2])[0] for o in testable]
    return list(zip(testable, ps, against_best(ps) if ps else []))


def correction(tests):
    """How the p-values were adjusted, in words."""
    k = len(tests) + 1
    return "Welch's t-test" if k <= 2 else \
        f"Welch's t-test, corrected for the {pairs(k)} pairs of the {k} points, as the data picked the best"


def p_text(t, tests):
    """A comparison's p, and its adjusted p when there is a correction."""
    return f"p = {t[1]:.2g}" + (f", adjusted {t[2]:.2g}" if len(tests) > 1 else "")


def with_goal(spec, rows, goal, looks=1):
    """The answer to --goal (a dict, JSON-ready, with its sentence)."""
    col, way = goal["column"], goal["direction"]
    every = groups(spec, rows, col)
    gs = [g for g in every if g[2]]
    out = {"goal": goal, "level": LEVEL, "looks": looks, "points": len(gs),
           "points_without_value": len(every) - len(gs)}
    if not gs:
        return {**out, "settled": False, "sentence": f"no complete run has a value of {col}: no answer"}
    gs.sort(key=mean, reverse=way == "max")
    best, others = gs[0], gs[1:]
    alpha = (1 - LEVEL) / looks
    tests = compare(best, others) if len(best[2]) >= 2 else []
    close = [t for t in tests if t[2] >= alpha]
    untested = [o for o in others if all(o is not t[0] for t in tests)]
    out.update({"correction": correction(tests),
                "best": point_json(best[0], best[1], best[2], col),
                "runner_up": point_json(others[0][0], others[0][1], others[0][2], col) if others else None,
                "comparisons": [{"point": t[0][0], "mean": mean(t[0]), "n": len(t[0][2]), "p": t[1],
                                 "p_adjusted": t[2], "distinguishable": t[2] < alpha} for t in tests],
                "contenders": [best[0]] + [t[0][0] for t in close] + [o[0] for o in untested],
                "settled": bool(others) and not close and not untested})
    # the closest not told apart is compared last once the others are
    need = replicates_needed(best[2], close[0][0][2], alpha / last_step(len(tests) + 1), POWER) if close else None
    out["replicates_needed"] = need
    out["sentence"] = sentence(best, others, tests, close, untested, col, way, need, alpha, looks) + \
        (f"; {out['points_without_value']} point{'s' if out['points_without_value'] != 1 else ''} without a "
         f"complete run with a value of {col} not compared" if out["points_without_value"] else "")
    return out


def sentence(best, others, tests, close, untested, col, way, need, alpha, looks):
    """The answer in words."""
    m, d = mean(best), describe(best[2], bounds_of(col))
    head = (f"{best[0]} is the best ({'largest' if way == 'max' else 'smallest'} {col}: {number(m)}"
            + (f", 95% interval {number(d['ci95_lo'])} to {number(d['ci95_hi'])}" if d["ci95_lo"] is not None else "")
            + f", {runs(len(best[2]))})")
    ties = [o for o in others if mean(o) == m]    # the first of equal means (in the table's order) is named
    if ties:
        head += f", tied with {ties[0][0] if len(ties) == 1 else f'{len(ties)} other points'}"
    if not others:
        return head + "; it is the only point"
    level = f"at {LEVEL:.0%}" + (f" over {looks} looks" if looks > 1 else "")
    if len(best[2]) < 2:
        return head + "; with one run at the best point there is no test: give --replicates K (or auto)"
    if not tests:
        return head + "; no other point has two runs or more, so there is no test: give --replicates K (or auto)"
    if close:
        t, n = close[0], len(best[2])
        text = (f"{head}; it is not distinguishable from {t[0][0]} ({number(mean(t[0]))}) {level} with {n} "
                f"replicate{'s' if n != 1 else ''} ({correction(tests)}, {p_text(t, tests)})")
        if len(close) > 1:
            text += f" nor from {len(close) - 1} other point{'s' if len(close) > 2 else ''}"
        return text + (f"; about {need} replicates would tell them apart if the difference is real" if need
                       else "; no number of replicates would tell them apart: their means are equal"
                       if mean(t[0]) == m else
                       f"; more than {REPLICATES_MOST} replicates would be needed to tell them apart")
    t = max(tests, key=lambda t: t[2])      # the closest: the largest adjusted p
    text = (f"{head}; it differs from every other point{' with two runs or more' if untested else ''} {level} "
            f"({correction(tests)}; the closest, {t[0][0]} ({number(mean(t[0]))}), {p_text(t, tests)})")
    if untested:
        text += f"; {len(untested)} point{'s' if len(untested) != 1 else ''} with fewer than 2 runs not compared"
    return text


def without_goal(spec, rows):
    """Each metric's points with the largest and the smallest mean."""
    stat = spec.get("chart_stat") or "mean"
    out = {"goal": None, "metrics": {}}
    for m in METRICS:
        col = f"{m}_{stat}"
        gs = [g for g in groups(spec, rows, col) if g[2]]
        if not gs:
            continue
        hi, lo = max(gs, key=mean), min(gs, key=mean)
        out["metrics"][col] = {"largest": point_json(hi[0], hi[1], hi[2], col),
                               "smallest": point_json(lo[0], lo[1], lo[2], col), "points": len(gs)}
    y = f"{spec.get('chart_y') or 'polarization'}_{stat}"
    a = out["metrics"].get(y)
    if not a:
        out["sentence"] = "no --goal, and no complete run"
    elif a["points"] == 1:   # the seeds alone are swept
        out["sentence"] = f"no --goal: {y} has a mean of {number(a['largest']['mean'])} over {runs(a['largest']['n'])}"
    elif a["largest"]["mean"] == a["smallest"]["mean"]:
        out["sentence"] = f"no --goal: {y} has the same mean at all {a['points']} points, {number(a['largest']['mean'])}"
    else:
        out["sentence"] = (f"no --goal: the largest {y} is at {a['largest']['point']} "
                           f"({number(a['largest']['mean'])}), the smallest at {a['smallest']['point']} "
                           f"({number(a['smallest']['mean'])})")
    return out


def answer(spec, rows):
    """The sweep's answer: with_goal() (at the level --replicates auto's
    looks leave each) or without_goal()."""
    goal, auto = spec.get("goal"), spec.get("auto")
    return with_goal(spec, rows, goal, len(auto["looks"]) if auto else 1) if goal else without_goal(spec, rows)
