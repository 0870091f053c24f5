#!/usr/bin/env python3
"""The sweep's statistics against independent computations, without a
sweep.  Usage: study_checks.py SRCDIR [CHECK...]; prints one line per
failure, exit 1 if any.  Checks (all by default):

  ishigami     the Sobol indices of the Ishigami function (a test model
               run through the sweep's own design and analysis: sampled
               points as the value strings boids would get, read back) at
               N = 4096 within 0.05 of the analytic ones (Ishigami and
               Homma 1990; Saltelli et al. 2010's values, computed here)
  intervals    the 95% interval of a bounded metric: the delta-method
               t-interval of logit(x) or log(x - lo), written out here,
               inside the range where the plain t-interval is not
  welch        Welch's t and p against the formula (Welch-Satterthwaite
               degrees of freedom) and the adjustment for the best against
               its definition, by hand
  familywise   ten equal points with 16 runs each, drawn 400 times: the
               answer calls one of them told apart from the best in at
               most 7% of the draws (Holm over the nine comparisons alone,
               blind to the best being picked by the data: 14%)
  power        the replicates a Welch test needs: at that n, a simulation
               of 4000 pairs of samples rejects about 80% of the time; at
               n - 1, less
  answer       the answer's sentence and numbers on tables made here
  rounds       --replicates auto: the contenders and the seeds of a round;
               no round for a grid of one point
  samples      a Latin hypercube puts one point in each of N strata of each
               range (log scale too), and each whole number of an integer
               range gets its share of them (the ends too); Sobol and LHS differ by seed, not by
               run; Saltelli's AB_i is A with B's column i
  handover     a python3 without SciPy (a copy of Debian's run with -S, as
               pyenv's would be) hands sweep-table over to /usr/bin/python3,
               which writes the statistics
"""
import json
import math
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/scripts")
import numpy  # noqa: E402
import scipy.stats as st  # noqa: E402
from boidsweep import answer, design, rounds, sensitivity, stats  # noqa: E402

fails = []


def need(ok, what):
    if not ok:
        fails.append(what)
        print(what, flush=True)


def ishigami():
    a, b = 7.0, 0.1
    spec = {"ranges": [[f"x{i}", repr(-math.pi), repr(math.pi), "linear", "number"] for i in (1, 2, 3)],
            "sample": {"method": "saltelli", "n": 4096, "seed": 3, "points": 4096 * 5}}
    rows = []
    for j, values in enumerate(design.design_rows(spec)):
        x1, x2, x3 = (float(v) for v in values)          # as boids would read them
        y = math.sin(x1) + a * math.sin(x2) ** 2 + b * x3 ** 4 * math.sin(x1)
        rows.append({"sample": j, "status": "complete", "y": y})
    res = sensitivity.analyse(spec, rows, "y")
    v1 = 0.5 * (1 + b * math.pi ** 4 / 5) ** 2
    v2 = a * a / 8
    v13 = 8 * b * b * math.pi ** 8 / 225
    v = a * a / 8 + b * math.pi ** 4 / 5 + b * b * math.pi ** 8 / 18 + 0.5
    want = {"x1": (v1 / v, (v1 + v13) / v), "x2": (v2 / v, v2 / v), "x3": (0.0, v13 / v)}
    # the closed forms give the published indices (a = 7, b = 0.1): S1 0.3139, 0.4424, 0; ST 0.5576, 0.4424, 0.2437
    published = {"x1": (0.3139, 0.5576), "x2": (0.4424, 0.4424), "x3": (0.0, 0.2437)}
    need(all(abs(want[x][i] - published[x][i]) < 5e-5 for x in want for i in (0, 1)),
         f"ishigami: the closed forms give {want}, not the published {published}")
    need(len(res["parameters"]) == 3 and res["n"] == 4096, f"ishigami: {res}")
    for p in res["parameters"]:
        s1, st1 = want[p["parameter"]]
        need(abs(p["S1"] - s1) < 0.05, f"ishigami: S1 of {p['parameter']} {p['S1']:.4f}, analytic {s1:.4f}")
        need(abs(p["ST"] - st1) < 0.05, f"ishigami: ST of {p['parameter']} {p['ST']:.4f}, analytic {st1:.4f}")
        need(p["S1_lo"] <= p["S1"] <= p["S1_hi"] and p["ST_lo"] <= p["ST"] <= p["ST_hi"],
             f"ishigami: an interval without its estimate: {p}")
        need(p["S1_hi"] - p["S1_lo"] < 0.2, f"ishigami: a bootstrap interval of width {p['S1_hi'] - p['S1_lo']}")


def intervals():
    t2 = 4.302652729911275     # t(0.975, 2)
    for xs in ([0.01, 0.03, 0.08], [0.97, 0.99, 0.9], [0.4, 0.5, 0.45]):
        m, sd = sum(xs) / 3, st.tstd(xs)
        g, s = math.log(m / (1 - m)), sd / math.sqrt(3) / (m * (1 - m))
        lo, hi = 1 / (1 + math.exp(-(g - t2 * s))), 1 / (1 + math.exp(-(g + t2 * s)))
        d = stats.describe(xs, (0.0, 1.0))
        need(math.isclose(d["ci95_lo"], lo, rel_tol=1e-9) and math.isclose(d["ci95_hi"], hi, rel_tol=1e-9),
             f"intervals: logit {xs}: {d}, want {lo}, {hi}")
        need(0 <= d["ci95_lo"] <= m <= d["ci95_hi"] <= 1, f"intervals: logit outside [0, 1]: {d}")
    xs = [0.01, 0.03, 0.08]
    need(sum(xs) / 3 - t2 * st.tstd(xs) / math.sqrt(3) < 0, "intervals: the data do not test the bound")
    xs = [1, 1, 9]
    m, sd = sum(xs) / 3, st.tstd(xs)
    h = t2 * sd / math.sqrt(3) / (m - 1)
    d = stats.describe(xs, (1.0, None))
    need(math.isclose(d["ci95_lo"], 1 + (m - 1) * math.exp(-h)) and math.isclose(d["ci95_hi"], 1 + (m - 1) * math.exp(h)),
         f"intervals: clusters {d}")
    d = stats.describe([2.0, 2.5, 3.0])
    half = t2 * 0.5 / math.sqrt(3)
    need(math.isclose(d["ci95_lo"], 2.5 - half) and math.isclose(d["ci95_hi"], 2.5 + half), f"intervals: plain {d}")
    d = stats.describe([1.0, 1.0, 1.0], (1.0, None))
    need(d["ci95_lo"] == d["ci95_hi"] == 1.0, f"intervals: every value on the bound: {d}")
    need(stats.interval_method((0.0, 1.0), True) == "t-logit" and stats.interval_method((1.0, None), True) ==
         "t-log(x-1)", "intervals: method names")


def welch():
    a, b = [0.39, 0.41, 0.37, 0.40], [0.35, 0.38, 0.36]
    ma, mb, va, vb = sum(a) / 4, sum(b) / 3, st.tvar(a), st.tvar(b)
    t = (ma - mb) / math.sqrt(va / 4 + vb / 3)
    df = (va / 4 + vb / 3) ** 2 / ((va / 4) ** 2 / 3 + (vb / 3) ** 2 / 2)
    p = 2 * st.t.sf(abs(t), df)
    got = stats.welch(a, b)
    need(math.isclose(got[0], p, rel_tol=1e-9) and math.isclose(got[1], t, rel_tol=1e-9),
         f"welch: {got}, want p {p}, t {t}")
    need(stats.welch([1.0, 1.0], [2.0, 2.0])[0] == 0.0 and stats.welch([1.0, 1.0], [1.0, 1.0])[0] == 1.0,
         "welch: samples without spread")
    ps = [0.01, 0.04, 0.03, 0.005]
    # by hand, 5 points: 10 pairs, then 6 (the pairs of the 4 others) -> sorted 0.005, 0.01, 0.03, 0.04
    # -> 10*0.005, 6*0.01, 6*0.03, 6*0.04, each at least the one before
    want = [0.06, 0.24, 0.18, 0.05]
    got = stats.against_best(ps)
    need(all(math.isclose(g, w) for g, w in zip(got, want)), f"against_best: {got}, want {want}")
    need(stats.against_best([0.03]) == [0.03], "against_best: two points are one plain test")
    need(all(math.isclose(g, w) for g, w in zip(stats.against_best([0.2, 0.01]), [0.2, 0.03])),
         "against_best: three points: 3 pairs, then 1")


def familywise():
    """Equal points: how often the answer calls one told apart (the family-wise error rate)."""
    rng = numpy.random.default_rng(43)
    spec = {"grid": [["a", [str(j) for j in range(10)]], ["seed", [str(s) for s in range(1, 17)]]]}
    wrong, draws = 0, 400
    for _ in range(draws):
        ys = rng.normal(0.5, 0.1, (10, 16))
        rows = [{"a": str(j), "seed": str(s + 1), "status": "complete", "y_mean": float(ys[j, s])}
                for j in range(10) for s in range(16)]
        f = answer.with_goal(spec, rows, {"column": "y_mean", "direction": "max"})
        wrong += any(c["distinguishable"] for c in f["comparisons"])
    need(wrong / draws <= 0.07, f"familywise: equal points told apart in {wrong} of {draws} draws")


def power():
    rng = numpy.random.default_rng(7)
    a, b = [0.39, 0.41, 0.37], [0.37, 0.40, 0.355]
    n = stats.replicates_needed(a, b, 0.05)
    need(n is not None and 3 < n < 200, f"power: {n} replicates")
    if n is None:
        return
    d, s1, s2 = numpy.mean(a) - numpy.mean(b), numpy.std(a, ddof=1), numpy.std(b, ddof=1)

    def simulated(k):
        x = rng.normal(d, s1, (4000, k))
        y = rng.normal(0.0, s2, (4000, k))
        return numpy.mean(st.ttest_ind(x, y, axis=1, equal_var=False).pvalue < 0.05)
    hit, below = simulated(n), simulated(max(n - 1, 2))
    need(0.77 <= hit <= 0.86, f"power: {n} replicates reject {hit:.3f} of simulated pairs, not about 0.8")
    need(n == 2 or below < 0.8, f"power: {n - 1} replicates already reject {below:.3f}")


def table(groups):
    """Table rows: {param: value, seed, status, column}."""
    return [{"a": a, "seed": str(k + 1), "status": "complete", "y_mean": x}
            for a, xs in groups for k, x in enumerate(xs)]


SPEC = {"grid": [["a", ["0", "0.05", "0.1"]], ["seed", ["1", "2", "3"]]], "chart_stat": "mean"}


def answers():
    goal = {"column": "y_mean", "direction": "max"}
    rows = table([("0", [0.30, 0.31, 0.29]), ("0.05", [0.382, 0.37, 0.39]), ("0.1", [0.391, 0.40, 0.38])])
    f = answer.with_goal(SPEC, rows, goal)
    need(f["best"]["point"] == "a=0.1" and f["runner_up"]["point"] == "a=0.05", f"answer: {f['best']}")
    need("a=0.1 is the best" in f["sentence"] and "not distinguishable from a=0.05" in f["sentence"]
         and "with 3 replicates" in f["sentence"] and "would tell them apart" in f["sentence"],
         f"answer: {f['sentence']}")
    ps = [stats.welch([0.391, 0.40, 0.38], xs)[0] for xs in ([0.382, 0.37, 0.39], [0.30, 0.31, 0.29])]
    adjusted = [min(1, max(3 * min(ps), ps[0])), min(1, 3 * ps[1])]   # 3 pairs, then 1; 0.05's p is the larger
    need(ps[0] > ps[1] and all(math.isclose(c["p_adjusted"], a) for c, a in zip(f["comparisons"], adjusted))
         and not f["settled"] and f["contenders"] == ["a=0.1", "a=0.05"],
         f"answer: {f['comparisons']} {f['contenders']}, want {adjusted}")
    need("corrected for the 3 pairs of the 3 points" in f["sentence"], f"answer: {f['sentence']}")
    rows = table([("0", [0.1, 0.11, 0.12]), ("0.05", [0.5, 0.52, 0.51]), ("0.1", [0.9, 0.91, 0.92])])
    f = answer.with_goal(SPEC, rows, {"column": "y_mean", "direction": "min"})
    need(f["best"]["point"] == "a=0" and f["settled"] and "differs from every other point" in f["sentence"],
         f"answer (min): {f['sentence']}")
    f = answer.without_goal({**SPEC, "chart_y": "y"}, [{**r, "polarization_mean": r["y_mean"]} for r in rows])
    need(f["metrics"]["polarization_mean"]["largest"]["point"] == "a=0.1"
         and f["metrics"]["polarization_mean"]["smallest"]["point"] == "a=0", f"answer (no goal): {f}")
    one = table([("0", [0.1]), ("0.1", [0.2])])
    need("no test" in answer.with_goal(SPEC, one, goal)["sentence"], "answer: one run a point")
    # a point with one run is not compared, and the sentence does not say the best differs from it
    rows = table([("0", [0.1, 0.11, 0.12]), ("0.05", [0.5]), ("0.1", [0.9, 0.91, 0.92])])
    f = answer.with_goal(SPEC, rows, goal)
    need(not f["settled"] and "differs from every other point with two runs or more" in f["sentence"]
         and "1 point with fewer than 2 runs not compared" in f["sentence"], f"answer: one run: {f['sentence']}")
    # a point whose runs all failed is said, not silently left out
    rows = table([("0", [0.1, 0.11, 0.12]), ("0.1", [0.9, 0.91, 0.92])]) + \
        [{"a": "0.05", "seed": str(k), "status": "failed", "y_mean": None} for k in (1, 2, 3)]
    f = answer.with_goal(SPEC, rows, goal)
    need(f["points_without_value"] == 1 and "1 point without a complete run" in f["sentence"],
         f"answer: failed point: {f['sentence']}")
    # a difference far too small for its spread: the sentence says how far off an answer is
    rows = table([("0", [0.1, 0.5, 0.9]), ("0.1", [0.1001, 0.5001, 0.9001])])
    f = answer.with_goal({**SPEC, "grid": [["a", ["0", "0.1"]], ["seed", ["1", "2", "3"]]]}, rows, goal)
    need(f["replicates_needed"] is None and f["sentence"].endswith("more than 100000 replicates would be needed to "
                                                                    "tell them apart"), f"answer: {f['sentence']}")
    # equal means (a whole-number metric): the best is said to be tied
    rows = table([("0", [1.0, 1.0, 2.0]), ("0.05", [1.0, 2.0, 1.0]), ("0.1", [3.0, 4.0, 3.0])])
    f = answer.with_goal(SPEC, rows, {"column": "y_mean", "direction": "min"})
    need(f["sentence"].startswith("a=0 is the best (smallest y_mean: 1.333") and ", tied with a=0.05;" in
         f["sentence"], f"answer: a tie: {f['sentence']}")
    # no goal, every point the same: not 'over 1 run'
    rows = table([("0", [0.2, 0.2]), ("0.05", [0.2, 0.2])])
    f = answer.without_goal({**SPEC, "chart_y": "polarization"}, [{**r, "polarization_mean": r["y_mean"]} for r in rows])
    need("the same mean at all 2 points" in f["sentence"], f"answer (no goal, all equal): {f['sentence']}")


def rounds_check():
    spec = {**SPEC, "goal": {"column": "y_mean", "direction": "max"}, "auto": {"max": 16, "looks": [4, 8, 16]},
            "rounds": []}
    rows = table([("0", [0.10, 0.11, 0.12, 0.1]), ("0.05", [0.382, 0.37, 0.39, 0.4]), ("0.1", [0.391, 0.40, 0.38, 0.39])])
    r, why = rounds.next_round(spec, rows)
    need(r == {"seeds": ["5", "6", "7", "8"], "points": [[["a", "0.1"]], [["a", "0.05"]]]},
         f"rounds: {r} ({why})")
    spec["rounds"] = [r, {"seeds": [str(s) for s in range(9, 17)], "points": r["points"]}]
    r, why = rounds.next_round(spec, rows)
    need(r is None and "the last" in why, f"rounds: after the last look: {r} ({why})")
    spec["rounds"] = []
    rows = table([("0", [0.10, 0.11, 0.12, 0.1]), ("0.05", [0.5, 0.51, 0.5, 0.52]), ("0.1", [0.9, 0.91, 0.92, 0.9])])
    r, why = rounds.next_round(spec, rows)
    need(r is None and "told apart" in why, f"rounds: a settled answer: {r} ({why})")
    one = {**spec, "grid": [["a", ["0.1"]], ["seed", ["1", "2", "3", "4"]]]}
    r, why = rounds.next_round(one, table([("0.1", [0.391, 0.40, 0.38, 0.39])]))
    need(r is None and "one point only" in why, f"rounds: a grid of one point got more seeds: {r} ({why})")


def samples():
    ranges = [["p", "0.001", "10", "log", "number"], ["q", "-1", "1", "linear", "number"],
              ["k", "1", "50", "linear", "integer"]]
    spec = {"ranges": ranges, "sample": {"method": "lhs", "n": 40, "seed": 5, "points": 40}}
    rows = design.design_rows(spec)
    p = [math.log10(float(r[0])) for r in rows]
    q = [float(r[1]) for r in rows]
    need(sorted(int((x + 3) / 4 * 40) for x in p) == list(range(40)), "samples: lhs over log p: not one a stratum")
    need(sorted(int((x + 1) / 2 * 40) for x in q) == list(range(40)), "samples: lhs over q: not one a stratum")
    need(all(r[2].isdigit() and 1 <= int(r[2]) <= 50 for r in rows), "samples: an integer option not an integer")
    # an integer range: each whole number an equal share, the ends too (300 strata: 100 each of 1, 2, 3)
    ks = design.design_rows({"ranges": [["k", "1", "3", "linear", "integer"]],
                             "sample": {"method": "lhs", "n": 300, "seed": 2, "points": 300}})
    got = [sum(r[0] == str(v) for r in ks) for v in (1, 2, 3)]
    need(got == [100, 100, 100], f"samples: lhs over the whole numbers 1 to 3 drew them {got} times")
    # on a log scale, M in proportion to log((M + 1)/M): 1 to 7 over 300 strata, each count within 1
    ks = design.design_rows({"ranges": [["k", "1", "7", "log", "unsigned"]],
                             "sample": {"method": "lhs", "n": 300, "seed": 2, "points": 300}})
    got = [sum(r[0] == str(v) for r in ks) for v in range(1, 8)]
    want = [300 * math.log((v + 1) / v) / math.log(8) for v in range(1, 8)]
    need(sum(got) == 300 and all(abs(g - w) <= 1 for g, w in zip(got, want)),
         f"samples: lhs over 1 to 7 on a log scale drew {got}, want about {[round(w, 1) for w in want]}")
    need(design.design_rows(spec) == rows, "samples: the same seed drew another design")
    need(design.design_rows({**spec, "sample": {**spec["sample"], "seed": 6}}) != rows, "samples: the seed is unused")
    sob = {"ranges": ranges[:2], "sample": {"method": "sobol", "n": 64, "seed": 1, "points": 64}}
    rs = design.design_rows(sob)
    need(len(rs) == 64 and len({tuple(r) for r in rs}) == 64, "samples: sobol points repeat")
    need(all(-1 <= float(r[1]) <= 1 and 0.001 <= float(r[0]) <= 10 for r in rs), "samples: outside a range")
    sal = {"ranges": ranges[:2], "sample": {"method": "saltelli", "n": 8, "seed": 1, "points": 32}}
    rs = design.design_rows(sal)
    A, B, AB1, AB2 = rs[0:8], rs[8:16], rs[16:24], rs[24:32]
    need(all(ab[0] == b[0] and ab[1] == a[1] for a, b, ab in zip(A, B, AB1)), "samples: AB_1 is not A with B's x1")
    need(all(ab[1] == b[1] and ab[0] == a[0] for a, b, ab in zip(A, B, AB2)), "samples: AB_2 is not A with B's x2")
    text = design.design_csv(sal, rs)
    need(design.read_design(text, sal) == rs, "samples: design.csv does not read back")


def handover():
    d = "handover"
    os.makedirs(d + "/runs")
    os.chmod(d, 0o755)
    open(d + "/.boids-sweep", "w").write("boids sweep directory, layout 2\n")
    spec = {"layout": 2, "bin": "/nonexistent", "grid": [["a", ["0", "1"]], ["seed", ["1", "2"]]], "fixed": [],
            "base_config": "", "fixed_config": [], "render": False, "ext": "mp4", "with_traj": False,
            "with_metrics": False, "chart_x": "a", "chart_y": "polarization", "chart_stat": "mean"}
    json.dump(spec, open(d + "/sweep.json", "w"))
    with open(d + "/grid.jsonl", "w") as g:
        for i, (a, sd) in enumerate((a, sd) for a in "01" for sd in "12"):
            g.write(json.dumps({"i": i, "name": f"a={a},seed={sd}", "values": [["a", a], ["seed", sd]],
                                "hash": "sha256:0"}) + "\n")
            json.dump({"status": "complete", "frames": 1, "frames_asked": 1, "options_hash": "sha256:0",
                       "metrics": {"polarization": {"final": 0.1 * i, "mean": 0.2 + 0.1 * i}}},
                      open(f"{d}/runs/a={a},seed={sd}.json", "w"))
    shutil.copy("/usr/bin/python3", "py")
    p = subprocess.run(["./py", "-S", sys.argv[1] + "/scripts/sweep-table", d], capture_output=True, text=True)
    rows = open(d + "/stats.csv").read().splitlines() if os.path.exists(d + "/stats.csv") else []
    need(p.returncode == 0 and len(rows) == 3 and "t-logit" in rows[1],
         f"handover: exit {p.returncode}, stats {rows[:2]}: {p.stderr[-300:]}")


CHECKS = {"ishigami": ishigami, "intervals": intervals, "welch": welch, "familywise": familywise, "power": power,
          "answer": answers,
          "rounds": rounds_check, "samples": samples, "handover": handover}
for name in sys.argv[2:] or CHECKS:
    CHECKS[name]()
print(f"study_checks: {len(fails)} failures")
sys.exit(1 if fails else 0)
