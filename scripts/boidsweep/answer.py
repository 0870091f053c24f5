"""The answer first: what a sweep found, in words and as DIR/answer.json.

With a goal (--goal METRIC:max|min), answer() names the best point (the
largest or smallest mean over its complete runs), its value and interval,
the runner-up, and whether the best is told apart from each other point:
Welch's t-test of the best against every other point, the p-values
adjusted by Holm's method over those comparisons, at 95%; for the closest
point it cannot tell apart, the runs a point that would (a Welch test's
power of 80% at the difference and spreads seen, if the difference is
real).  --replicates auto's looks divide the level by their number
(Bonferroni over the looks).  Without a goal: each metric's points with
the largest and smallest mean.
"""
import math

from .common import METRICS
from .grid import swept_names
from .stats import bounds_of, describe, holm, replicates_needed, welch

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


def compare(best, others, alpha):
    """Welch's t-test of the best against each other point with 2 runs or
    more, Holm-adjusted: [(point, p, adjusted p)] in the others' order."""
    testable = [o for o in others if len(o[2]) >= 2]
    ps = [welch(best[2], o[2])[0] for o in testable]
    return list(zip(testable, ps, holm(ps) if ps else []))


def with_goal(spec, rows, goal, looks=1):
    """The answer to --goal (a dict, JSON-ready, with its sentence)."""
    col, way = goal["column"], goal["direction"]
    gs = [g for g in groups(spec, rows, col) if g[2]]
    out = {"goal": goal, "level": LEVEL, "correction": "Holm", "looks": looks, "points": len(gs)}
    if not gs:
        return {**out, "settled": False, "sentence": f"no complete run has a value of {col}: no answer"}
    gs.sort(key=lambda g: math.fsum(g[2]) / len(g[2]), reverse=way == "max")
    best, others = gs[0], gs[1:]
    alpha = (1 - LEVEL) / looks
    tests = compare(best, others, alpha) if len(best[2]) >= 2 else []
    close = [t for t in tests if t[2] >= alpha]
    untested = [o for o in others if all(o is not t[0] for t in tests)]
    out.update({"best": point_json(best[0], best[1], best[2], col),
                "runner_up": point_json(others[0][0], others[0][1], others[0][2], col) if others else None,
                "comparisons": [{"point": t[0][0], "mean": math.fsum(t[0][2]) / len(t[0][2]), "n": len(t[0][2]),
                                 "p": t[1], "p_holm": t[2], "distinguishable": t[2] < alpha} for t in tests],
                "contenders": [best[0]] + [t[0][0] for t in close] + [o[0] for o in untested],
                "settled": bool(others) and not close and not untested})
    need = None
    if close:
        t = close[0]
        need = replicates_needed(best[2], t[0][2], alpha / max(len(tests), 1), POWER)
    out["replicates_needed"] = need
    out["sentence"] = sentence(best, others, tests, close, untested, col, way, need, alpha, looks)
    return out


def sentence(best, others, tests, close, untested, col, way, need, alpha, looks):
    """The answer in words."""
    m = math.fsum(best[2]) / len(best[2])
    d = describe(best[2], bounds_of(col))
    head = (f"{best[0]} is the best ({'largest' if way == 'max' else 'smallest'} {col}: {number(m)}"
            + (f", 95% interval {number(d['ci95_lo'])} to {number(d['ci95_hi'])}" if d["ci95_lo"] is not None else "")
            + f", {len(best[2])} run{'s' if len(best[2]) != 1 else ''})")
    if not others:
        return head + "; it is the only point"
    level = f"at {LEVEL:.0%}" + (f" over {looks} looks" if looks > 1 else "")
    how = f"Welch's t-test, Holm-corrected over {len(tests)} comparison{'s' if len(tests) != 1 else ''}"
    if len(best[2]) < 2 or not tests:
        return head + f"; with one run a point (or fewer than 2 runs at {others[0][0]}) there is no test: " \
            "give --replicates K (or auto)"
    if close:
        t = close[0]
        n = len(best[2])
        text = (f"{head}; it is not distinguishable from {t[0][0]} ({number(math.fsum(t[0][2]) / len(t[0][2]))}) "
                f"{level} with {n} replicate{'s' if n != 1 else ''} ({how}, p = {t[2]:.2g})")
        if len(close) > 1:
            text += f" nor from {len(close) - 1} other point{'s' if len(close) > 2 else ''}"
        return text + (f"; about {need} replicates would tell them apart if the difference is real" if need
                       else "; no number of replicates would tell them apart: their means are equal"
                       if math.fsum(t[0][2]) / len(t[0][2]) == m else "")
    t = max(tests, key=lambda t: t[2])      # the closest: the largest adjusted p
    text = (f"{head}; it differs from every other point {level} ({how}; the closest, {t[0][0]} "
            f"({number(math.fsum(t[0][2]) / len(t[0][2]))}), p = {t[2]:.2g})")
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
        mean = lambda g: math.fsum(g[2]) / len(g[2])
        hi, lo = max(gs, key=mean), min(gs, key=mean)
        out["metrics"][col] = {"largest": point_json(hi[0], hi[1], hi[2], col),
                               "smallest": point_json(lo[0], lo[1], lo[2], col)}
    y = f"{spec.get('chart_y') or 'polarization'}_{stat}"
    a = out["metrics"].get(y)
    if not a:
        out["sentence"] = "no --goal, and no complete run"
    elif a["largest"]["point"] == a["smallest"]["point"]:   # one point (the seeds alone are swept)
        n = a['largest']['n']
        out["sentence"] = f"no --goal: {y} has a mean of {number(a['largest']['mean'])} over {n} run{'s' if n != 1 else ''}"
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
