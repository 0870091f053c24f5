"""Statistics over replicate seeds: n, mean, sample standard deviation and
the 95% confidence interval of the mean (Student's t).
"""
import functools
import math


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _ibeta(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_cdf(t, df):
    x = df / (df + t * t)
    p = 0.5 * _ibeta(df / 2.0, 0.5, x)
    return 1 - p if t > 0 else p


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """The p quantile of Student's t with df degrees of freedom (bisection)."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def describe_values(xs):
    """n, mean, sd (n - 1), and the 95% CI of the mean; None for what
    cannot be computed (a value not finite, or so large that a sum of
    squares overflows)."""
    n = len(xs)
    none = {"n": n, "mean": None, "sd": None, "ci95_lo": None, "ci95_hi": None}
    if n == 0 or not all(math.isfinite(x) for x in xs):
        return none
    try:
        mean = math.fsum(xs) / n
        if n == 1:
            return {**none, "mean": mean}
        sd = math.sqrt(math.fsum((x - mean) * (x - mean) for x in xs) / (n - 1))
        half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    except (OverflowError, ValueError):
        return none
    if not all(math.isfinite(v) for v in (mean, sd, half)):
        return none
    return {"n": n, "mean": mean, "sd": sd, "ci95_lo": mean - half, "ci95_hi": mean + half}
