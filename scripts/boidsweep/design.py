"""A study's design beyond a grid, read from the command line into the spec:

  --range NAME=LO:HI[:log]    a parameter sampled over an interval
  --sample lhs:N[:SEED]       N points of a scrambled Latin hypercube, or
  --sample sobol:N[:SEED]     the first N of a scrambled Sobol sequence
  --sensitivity METRIC        Saltelli's design: N(k+2) points for k ranges
  --goal METRIC:max|min       the question the sweep answers
  --replicates auto[:MAX]     seeds added in rounds until the answer is settled

design_rows() makes the sampled points (scipy.stats.qmc), each a list of
the values given to boids, which become grid points like any other (a run
each, its name starting sample=J).  The design is written once, as
DIR/design.csv, and read back by --resume (another SciPy might draw
another sequence from the same seed).
"""
import csv
import io
import math
import re
import warnings

from .common import METRICS, NO_SWEEP, Usage, did_you_mean, shown

NUMERIC = ("number", "integer", "unsigned")
AUTO_FIRST, AUTO_MAX = 4, 32        # --replicates auto: seeds at the first look, and MAX's default


def parse_ranges(o, opts, swept):
    """--range NAME=LO:HI[:log] -> [[name, lo, hi, "log"|"linear", type]] (lo and hi as typed)."""
    ranges = []
    for r in o["range"]:
        name, eq, rest = r.partition("=")
        parts = rest.split(":")
        od = opts.get(name)
        if not eq or len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] not in ("log", "linear")):
            raise Usage(f"--range '{shown(r)}': expected NAME=LO:HI or NAME=LO:HI:log")
        if not od or not od["takes_value"] or od["type"] not in NUMERIC or name in NO_SWEEP:
            raise Usage(f"--range '{shown(r)}': '{shown(name)}' is not a numeric option of boids"
                        + did_you_mean(name, [k for k, v in opts.items() if v.get("type") in NUMERIC]))
        if name in swept:
            raise Usage(f"--range '{shown(r)}': {name} is already swept")
        try:
            lo, hi = float(parts[0]), float(parts[1])
        except ValueError:
            raise Usage(f"--range '{shown(r)}': '{shown(parts[0])}' and '{shown(parts[1])}' must be numbers")
        scale = parts[2] if len(parts) == 3 else "linear"
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi) or (scale == "log" and lo <= 0):
            raise Usage(f"--range '{shown(r)}': need LO < HI" + (", both above 0 on a log scale" if scale == "log"
                                                                   else ""))
        for bound, what in ((od.get("min"), "min"), (od.get("max"), "max")):
            if isinstance(bound, (int, float)) and (lo < bound if what == "min" else hi > bound):
                raise Usage(f"--range '{shown(r)}': --{name} takes values from {od.get('min')} to {od.get('max')}")
        if od["type"] != "number" and math.ceil(lo) > math.floor(hi):
            raise Usage(f"--range '{shown(r)}': --{name} takes whole numbers, and there is none from {lo:g} to {hi:g}")
        swept.add(name)
        ranges.append([name, parts[0], parts[1], scale, od["type"]])
    return ranges


def parse_sample(o, ranges, sensitivity):
    """--sample METHOD:N[:SEED] -> {"method", "n", "seed", "points"}, or None without ranges."""
    if not ranges:
        if o["sample"] or sensitivity:
            raise Usage(("--sensitivity" if sensitivity else "--sample") + " needs the parameters as --range NAME=LO:HI")
        return None
    text = o["sample"] or ("sobol:64" if sensitivity else "")
    m = re.fullmatch(r"(lhs|sobol):([0-9]{1,7})(?::([0-9]{1,9}))?", text)
    if not m or not 1 <= int(m.group(2)) <= 1000000:
        raise Usage(f"--sample: '{shown(text)}' is not lhs:N or sobol:N (N from 1 to 1000000, then :SEED)"
                    if text else "--range needs --sample lhs:N or sobol:N (or --sensitivity)")
    method, n, seed = m.group(1), int(m.group(2)), int(m.group(3) or 1)
    if sensitivity:
        if method != "sobol":
            raise Usage("--sensitivity draws Saltelli's design from a Sobol sequence: --sample sobol:N")
        return {"method": "saltelli", "n": n, "seed": seed, "points": n * (len(ranges) + 2)}
    return {"method": method, "n": n, "seed": seed, "points": n}


def parse_metric(text, what, stat):
    """A metric as a table column: polarization (with the chart's statistic),
    polarization_final or polarization_mean; Usage otherwise."""
    m = re.fullmatch(r"([a-z_]+?)(?:_(final|mean))?", text or "")
    if not m or m.group(1) not in METRICS:
        raise Usage(f"{what}: unknown metric '{shown(text)}'" + (did_you_mean(text, METRICS) or f" ({', '.join(METRICS)})"))
    return f"{m.group(1)}_{m.group(2) or stat}"


def parse_goal(text, stat):
    """--goal METRIC:max|min -> {"column", "direction"}."""
    metric, colon, way = text.rpartition(":")
    if not colon or way not in ("max", "min"):
        raise Usage(f"--goal: '{shown(text)}' is not METRIC:max or METRIC:min")
    return {"column": parse_metric(metric, "--goal", stat), "direction": way}


def parse_replicates(text):
    """--replicates K or auto[:MAX] -> (K, auto): auto is {"max", "looks"},
    the seeds at each look (doubling from AUTO_FIRST up to MAX)."""
    if text is None:
        return None, None
    m = re.fullmatch(r"auto(?::([0-9]{1,6}))?", text)
    if m:
        most = int(m.group(1) or AUTO_MAX)
        if not 2 <= most <= 100000:
            raise Usage(f"--replicates: '{shown(text)}': MAX is a number from 2 to 100000")
        looks = [min(AUTO_FIRST, most)]
        while looks[-1] < most:
            looks.append(min(2 * looks[-1], most))
        return looks[0], {"max": most, "looks": looks}
    if not re.fullmatch(r"[0-9]+", text) or not 1 <= int(text, 10) <= 100000:
        raise Usage(f"--replicates: '{shown(text)}' is not a number from 1 to 100000, or auto[:MAX]")
    return int(text, 10), None


# ------------------------------------------------------------ the points

def value(u, rng):
    """A point of [0, 1) as the value of a range, as boids is given it.  An
    integer option's whole numbers M from LO to HI each take an equal share
    of [0, 1) (on a log scale, a share in proportion to log((M + 1)/M)), so
    that each of a Latin hypercube's strata maps to one whole number and
    the ends are drawn as often as the middle (rounding would give LO and
    HI half a share each)."""
    _, lo, hi, scale, kind = rng
    lo, hi = float(lo), float(hi)
    if kind in ("integer", "unsigned"):
        a, b = math.ceil(lo), math.floor(hi)
        v = math.exp(math.log(a) + u * (math.log(b + 1) - math.log(a))) if scale == "log" else a + u * (b + 1 - a)
        return str(min(max(math.floor(v), a), b))
    v = math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo))) if scale == "log" else lo + u * (hi - lo)
    return f"{min(max(v, lo), hi):.9g}"


def notes(spec):
    """What a user should know of a new design before it runs: a Sobol
    sequence's N not a power of 2 (SciPy's warning, said in our words)."""
    sample = spec.get("sample") or {}
    n = sample.get("n", 0)
    if sample.get("method") not in ("sobol", "saltelli") or n & (n - 1) == 0:
        return []
    lower = 1 << (n.bit_length() - 1)
    what = "--sensitivity's Sobol sequence" if sample["method"] == "saltelli" else "a Sobol sequence"
    return [f"--sample sobol:{n}: {n} is not a power of 2; {what} is balanced over the ranges at powers of 2 "
            f"({lower} or {2 * lower} points), so these {n} points fill them less evenly"]


def unit_points(sample, k):
    """The sample's points in [0, 1)^k (numpy array), drawn by scipy.stats.qmc."""
    from .stats import scipy_stats
    qmc = scipy_stats().qmc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # Sobol's balance wants N a power of 2: notes() says it
        if sample["method"] == "lhs":
            return qmc.LatinHypercube(d=k, seed=sample["seed"]).random(sample["n"])
        if sample["method"] == "sobol":
            return qmc.Sobol(d=k, scramble=True, seed=sample["seed"]).random(sample["n"])
        return saltelli(qmc.Sobol(d=2 * k, scramble=True, seed=sample["seed"]).random(sample["n"]), k)


def saltelli(u, k):
    """Saltelli (2010)'s design from N points of a 2k-dimensional sequence:
    A (its first k columns), B (the last k), then AB_1..AB_k (A with column
    i taken from B), N rows each, in that order: N(k+2) points."""
    import numpy
    a, b = u[:, :k], u[:, k:]
    blocks = [a, b]
    for i in range(k):
        ab = a.copy()
        ab[:, i] = b[:, i]
        blocks.append(ab)
    return numpy.vstack(blocks)


def design_rows(spec):
    """Every sampled point: [[value, ...] in the order of the ranges]."""
    ranges = spec["ranges"]
    return [[value(float(u), r) for u, r in zip(row, ranges)] for row in unit_points(spec["sample"], len(ranges))]


def design_csv(spec, rows):
    """DIR/design.csv: sample, then a column per range."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["sample"] + [r[0] for r in spec["ranges"]])
    for j, row in enumerate(rows):
        w.writerow([j] + row)
    return buf.getvalue().encode("ascii")


def read_design(data, spec):
    """design.csv's rows back, checked against the spec; ValueError when it is not the design."""
    rows = list(csv.reader(io.StringIO(data.decode("ascii"))))
    if not rows or rows[0] != ["sample"] + [r[0] for r in spec["ranges"]] or len(rows) != spec["sample"]["points"] + 1:
        raise ValueError("not this sweep's design")
    out = []
    for j, row in enumerate(rows[1:]):
        if len(row) != len(rows[0]) or row[0] != str(j) or not all(re.fullmatch(r"[-+0-9.eE]{1,40}", v) for v in row[1:]):
            raise ValueError(f"line {j + 2} is not a point")
        out.append(row[1:])
    return out
