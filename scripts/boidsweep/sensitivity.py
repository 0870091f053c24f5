"""Which parameters matter: Sobol sensitivity indices of a metric over the
--range parameters, from Saltelli's design (design.saltelli(): blocks A, B,
AB_1..AB_k of N rows each).

For each parameter i, with f the metric (the mean over a point's seeds),
V the variance of f over A and B together (Saltelli et al. 2010, "Variance
based sensitivity analysis of model output", Table 2):

  first-order  S_i  = mean(f(B) * (f(AB_i) - f(A))) / V      (their (b))
  total        ST_i = mean((f(A) - f(AB_i))^2) / (2 V)       (Jansen, their (f))

and 95% intervals from a bootstrap of the N rows (BOOTSTRAP resamples, a
fixed seed: the same numbers every time).  A row whose A, B or AB_i point
has no value (a failed run) is left out, and counted.
"""
import math
import os
import shutil
import tempfile

from .stats import scipy_stats

BOOTSTRAP = 1000


def matrices(spec, rows, column):
    """(yA, yB, [yAB_i]) as numpy arrays over the N rows that have every
    value, and the number of rows left out.  rows: the table's rows (their
    sample index and column; the mean over a sample's complete runs)."""
    import numpy
    n, k = spec["sample"]["n"], len(spec["ranges"])
    sums, counts = numpy.zeros(n * (k + 2)), numpy.zeros(n * (k + 2))
    for r in rows:
        j, x = r.get("sample"), r.get(column)
        if r.get("status") == "complete" and type(j) is int and 0 <= j < n * (k + 2) \
                and isinstance(x, (int, float)) and math.isfinite(x):
            sums[j] += x
            counts[j] += 1
    with numpy.errstate(invalid="ignore", divide="ignore"):
        f = (sums / counts).reshape(k + 2, n)
    keep = numpy.all(numpy.isfinite(f), axis=0)
    f = f[:, keep]
    return f[0], f[1], [f[2 + i] for i in range(k)], int(n - keep.sum())


def indices(ya, yb, yab):
    """(S [k], ST [k]) from the design's outputs (Saltelli 2010's estimators)."""
    import numpy
    v = numpy.var(numpy.concatenate([ya, yb]))
    s = [float(numpy.mean(yb * (y - ya)) / v) for y in yab]
    st = [float(numpy.mean((ya - y) ** 2) / (2 * v)) for y in yab]
    return s, st


def analyse(spec, rows, column):
    """The indices of column with bootstrap intervals: a dict, JSON-ready."""
    import numpy
    scipy_stats()      # says what to install when SciPy (and NumPy) are missing
    ya, yb, yab, dropped = matrices(spec, rows, column)
    names = [r[0] for r in spec["ranges"]]
    out = {"metric": column, "method": "Saltelli 2010 (first order), Jansen (total); "
           f"95% percentile bootstrap over the rows, {BOOTSTRAP} resamples",
           "n": int(len(ya)), "rows_left_out": dropped, "parameters": []}
    if len(ya) < 2 or numpy.var(numpy.concatenate([ya, yb])) == 0:
        out["note"] = "too few rows, or the metric does not vary: no indices"
        return out
    s, st = indices(ya, yb, yab)
    rng = numpy.random.default_rng(2010)
    boot_s, boot_st = [], []
    with numpy.errstate(invalid="ignore", divide="ignore"):
        for _ in range(BOOTSTRAP):
            take = rng.integers(0, len(ya), len(ya))
            a, b = indices(ya[take], yb[take], [y[take] for y in yab])
            boot_s.append(a)
            boot_st.append(b)
    lo_s, hi_s = numpy.nanpercentile(boot_s, [2.5, 97.5], axis=0)
    lo_t, hi_t = numpy.nanpercentile(boot_st, [2.5, 97.5], axis=0)
    for i, name in enumerate(names):
        out["parameters"].append({"parameter": name, "S1": s[i], "S1_lo": float(lo_s[i]), "S1_hi": float(hi_s[i]),
                                  "ST": st[i], "ST_lo": float(lo_t[i]), "ST_hi": float(hi_t[i])})
    return out


COLUMNS = ("parameter", "S1", "S1_lo", "S1_hi", "ST", "ST_lo", "ST_hi")


def table_rows(result):
    return [{c: p[c] for c in COLUMNS} for p in result["parameters"]]


def bar_chart(result, out, size="1200x500", font=16):
    """The indices as bars (first-order and total side by side, each with
    its interval), gnuplot's SVG or PNG into out.  False without gnuplot
    or indices."""
    from .chart import gnuplot, label, script_string
    if not result["parameters"] or not shutil.which("gnuplot"):
        return False
    w, h = size.split("x")
    # indices lie in [0, 1]; estimates and their intervals from few rows may
    # stray far outside: the axis shows a little beyond, never more than
    # [-0.5, 1.5] (a bar cut there says so by reaching the edge)
    ends = [p[c] for p in result["parameters"] for c in COLUMNS[1:] if math.isfinite(p[c])]
    lo, hi = max(min(ends + [0.0]) - 0.05, -0.5), min(max(ends + [1.0]) + 0.05, 1.5)
    work = tempfile.mkdtemp(prefix="boids-sens-")
    try:
        with open(os.path.join(work, "s.dat"), "w", encoding="utf-8") as f:
            f.write("k\tname\tS1\tS1_lo\tS1_hi\tST\tST_lo\tST_hi\n")
            for k, p in enumerate(result["parameters"]):
                f.write(f"{k}\t\"{label(p['parameter'])}\"\t" + "\t".join(repr(p[c]) for c in COLUMNS[1:]) + "\n")
        svg = out.lower().endswith(".svg")
        text = "\n".join([
            f"set terminal {'svg' if svg else 'pngcairo'} size {w},{h} noenhanced font ',{font}'"
            + (" background rgb 'white'" if svg else ""),
            "set datafile separator '\\t'",
            f"set title {script_string('Sobol indices of ' + result['metric'] + ' (N = ' + str(result['n']) + ')')}",
            "set ylabel 'index'", "set grid ytics", "set key below", f"set yrange [{lo:g}:{hi:g}]",
            "set style fill solid 0.6 border -1", "set boxwidth 0.35 absolute", "set xtics rotate by -20",
            "set xrange [-0.6:" + str(len(result["parameters"]) - 0.4) + "]",
            "plot 's.dat' using ($1-0.19):3:4:5:(0.36):xtic(2) with boxerrorbars lc rgb '#4477AA' title 'first order S1', \\",
            "     's.dat' using ($1+0.19):6:7:8:(0.36) with boxerrorbars lc rgb '#CC6677' title 'total ST'", ""])
        gnuplot(text, work, out)
        return True
    finally:
        shutil.rmtree(work, ignore_errors=True)
