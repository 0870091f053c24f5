"""Statistics over replicate seeds, with SciPy (Debian's python3-scipy).

describe() gives n, mean, sample standard deviation and a 95% interval of
the mean that stays inside the metric's range: Student's t on a scale where
the range has no edge (the logit of a metric in [0, 1], the log of its
distance from a lower bound), mapped back (the delta method), named by
interval_method().  welch() and against_best() compare points; replicates_needed()
is the sample size a Welch test would need to tell two points apart.
SciPy is imported when first needed: a --task never pays for it.
"""
import functools
import math
import warnings

from .common import Failure

# each metric's range: (lowest, highest), None for no bound (docs/SWEEPS.md, The metrics)
BOUNDS = {"polarization": (0.0, 1.0), "milling": (0.0, 1.0), "mean_speed": (0.0, None),
          "nn_distance": (0.0, None), "gyration_radius": (0.0, None), "clusters": (1.0, None)}
LEVEL = 0.95


def scipy_stats():
    """scipy.stats, or Failure saying which packages to install."""
    try:
        import scipy.stats
    except ImportError:
        raise Failure("the statistics need NumPy and SciPy: apt-get install python3-numpy python3-scipy "
                      "(Debian's /usr/bin/python3 has them)")
    return scipy.stats


def bounds_of(column):
    """The range of a table column such as polarization_final: (lo, hi)."""
    for m, b in BOUNDS.items():
        if column == m or column.startswith(m + "_"):
            return b
    return (None, None)


def interval_method(bounds, short=False):
    """The interval's name for a metric with these bounds."""
    lo, hi = bounds
    if lo is not None and hi is not None:
        return "t-logit" if short else f"Student t on the logit scale, inside [{lo:g}, {hi:g}]"
    if lo is not None:
        if short:
            return "t-log" if lo == 0 else f"t-log(x-{lo:g})"
        return "Student t on the log scale, above 0" if lo == 0 else \
            f"Student t on the log scale of x - {lo:g}, above {lo:g}"
    return "t" if short else "Student t"


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """The p quantile of Student's t with df degrees of freedom."""
    return float(scipy_stats().t.ppf(p, df))


def transformed(mean, se, t, bounds):
    """(lo, hi): mean +- t*se on the scale where the bounds are at infinity,
    mapped back (delta method: the scale's slope at the mean scales se)."""
    lo, hi = bounds
    if lo is not None and hi is not None:
        u = (mean - lo) / (hi - lo)
        g, s = math.log(u / (1 - u)), se / ((hi - lo) * u * (1 - u))
        back = lambda z: lo + (hi - lo) / (1 + math.exp(-z)) if z > -700 else lo
        return back(g - t * s), back(g + t * s)
    d = mean - lo
    g, s = math.log(d), se / d
    return lo + math.exp(max(g - t * s, -745)), lo + math.exp(min(g + t * s, 709))


def describe(xs, bounds=(None, None)):
    """n, mean, sd (n - 1) and the 95% interval of the mean (ci95_lo,
    ci95_hi; inside bounds), None where it cannot be computed (no values, a
    value not finite, sums that overflow).  A mean on a bound (every value
    there) has the interval [mean, mean]; values outside the bounds (not
    the metric's) get the plain t-interval."""
    n = len(xs)
    none = {"n": n, "mean": None, "sd": None, "ci95_lo": None, "ci95_hi": None}
    if n == 0 or not all(math.isfinite(x) for x in xs):
        return none
    try:
        mean = math.fsum(xs) / n
        if n == 1:
            return {**none, "mean": mean}
        sd = math.sqrt(math.fsum((x - mean) * (x - mean) for x in xs) / (n - 1))
        t, se = t_quantile(0.5 + LEVEL / 2, n - 1), sd / math.sqrt(n)
        lo, hi = bounds
        inside = all((lo is None or x >= lo) and (hi is None or x <= hi) for x in xs) and lo is not None
        if inside and (sd == 0 or mean <= lo or (hi is not None and mean >= hi)):
            a, b = mean, mean
        elif inside:
            a, b = transformed(mean, se, t, bounds)
        else:
            a, b = mean - t * se, mean + t * se
    except (OverflowError, ValueError, ZeroDivisionError):
        return none
    if not all(math.isfinite(v) for v in (mean, sd, a, b)):
        return none
    return {"n": n, "mean": mean, "sd": sd, "ci95_lo": min(a, mean), "ci95_hi": max(b, mean)}


describe_values = describe


def welch(a, b):
    """Welch's t-test of two samples (two-sided): (p, t).  Samples without
    spread: p 0 when their means differ, 1 when equal."""
    st = scipy_stats()
    va = math.fsum((x - sum(a) / len(a)) ** 2 for x in a)
    vb = math.fsum((x - sum(b) / len(b)) ** 2 for x in b)
    if va == 0 and vb == 0:
        same = math.fsum(a) / len(a) == math.fsum(b) / len(b)
        return (1.0, 0.0) if same else (0.0, math.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = st.ttest_ind(a, b, equal_var=False)
    return float(r.pvalue), float(r.statistic)


def pairs(k):
    """The pairs of k points."""
    return k * (k - 1) // 2


def against_best(ps):
    """Adjusted p-values of the comparisons of the best point with each
    other one (ps, in the order given; k = len(ps) + 1 points), holding the
    chance of calling any equal pair different under the level although
    the data picked the best: any pair of the k points could have been the
    one compared, so the smallest p is multiplied by the k(k - 1)/2 pairs
    and each later one by (k - 1)(k - 2)/2, the most pairs that can still be
    equal once the best differs from another point (Holm's step-down, 1979,
    with Shaffer's count of the hypotheses that can still be true, 1986);
    adjusted p-values never decrease along the steps.  Holm over the k - 1
    comparisons alone calls equal points different more often than the
    level (with 10 equal points and 16 runs each, 14% of the time at 5%)."""
    k = len(ps) + 1
    order = sorted(range(len(ps)), key=lambda j: ps[j])
    adj, run = [0.0] * len(ps), 0.0
    for step, j in enumerate(order):
        run = max(run, min(1.0, (pairs(k) if step == 0 else max(pairs(k - 1), 1)) * ps[j]))
        adj[j] = run
    return adj


def last_step(k):
    """The multiplier against_best() gives the last of k - 1 comparisons
    (the one made once the best is told apart from every other point)."""
    return pairs(k) if k <= 2 else max(pairs(k - 1), 1)


def welch_power(n, d, s1, s2, alpha):
    """The power of a two-sided Welch test at level alpha with n runs a
    point, a true difference d and standard deviations s1, s2."""
    st = scipy_stats()
    v = (s1 * s1 + s2 * s2) / n
    df = v * v / ((s1 ** 4 + s2 ** 4) / (n * n * (n - 1)))
    crit = st.t.ppf(1 - alpha / 2, df)
    ncp = abs(d) / math.sqrt(v)
    return float(st.nct.sf(crit, df, ncp) + st.nct.cdf(-crit, df, ncp))


REPLICATES_MOST = 100000          # replicates_needed() looks no further


def replicates_needed(a, b, alpha, power=0.8, most=REPLICATES_MOST):
    """The runs a point a Welch test at level alpha would need to tell
    samples like a and b apart with this power, if the difference of their
    means is real; None when they do not differ or need more than most."""
    ma, mb = math.fsum(a) / len(a), math.fsum(b) / len(b)
    sa = math.sqrt(math.fsum((x - ma) ** 2 for x in a) / (len(a) - 1))
    sb = math.sqrt(math.fsum((x - mb) ** 2 for x in b) / (len(b) - 1))
    if ma == mb or sa + sb == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if welch_power(most, ma - mb, sa, sb, alpha) < power:
            return None
        lo, hi = 2, most
        while lo < hi:                    # the power grows with n
            mid = (lo + hi) // 2
            if welch_power(mid, ma - mb, sa, sb, alpha) >= power:
                hi = mid
            else:
                lo = mid + 1
    return lo
