"""scripts/chart: a metric of a sweep's table against a swept parameter,
drawn by gnuplot, one line per combination of the other swept parameters;
with --mean-over, each point the mean with its 95% interval (inside the
metric's range: stats.describe()), series moved sideways so that their bars
do not overlap; with --scatter, every row a point.  gnuplot() draws any
script into a file through a temporary (the sensitivity chart uses it too).
"""
import csv
import math
import os
import re
import shutil
import tempfile
import textwrap

from .common import Failure, Usage, did_you_mean
from .files import check_output, same_file, write_output_of
from .stats import bounds_of, describe, interval_method

USAGE = """\
Usage: scripts/chart [OPTION]... TABLE.csv
Plot a metric of a sweep table (scripts/sweep's table.csv) against a swept
parameter with gnuplot, one line per combination of the values of the other
swept parameters.  Only complete runs count (a status column, when there is
one, must say complete).

  --x NAME          parameter on the x axis [the first swept column]
  --y COLUMN        column on the y axis, such as polarization_mean or
                    clusters_final [polarization_mean]
  --mean-over NAME  average over this swept parameter (e.g. seed): each point
                    is the mean, with an error bar for its 95% confidence
                    interval when it has two runs or more (Student's t, on
                    the logit or log scale for a metric with a bounded range,
                    so that it stays inside it; the caption names it, and n);
                    series are moved sideways so their bars do not overlap
  --scatter         every row a point, one series (a sampled design: the
                    other parameters are not fixed values)
  --title TEXT      chart title [Y against X]
  --size WxH        picture size in pixels [900x540]
  --font-size PX    the text's size in pixels at that size [13]
  --x-scale HOW     auto (log when the x values are spread by a constant
                    factor, such as 0.001, 0.01, 0.1), linear or log [auto]
  --caption-file F  also write the chart's caption (the interval, n) to F
  --points-file F   also write what is drawn to F (tab-separated: series, x,
                    x as drawn, n, mean, the interval's ends, colour, shape)
  -o FILE           the PNG (or, named .svg, the SVG) to write [chart.png];
                    never one of the inputs
  -y                overwrite FILE when it exists (without -y: refused)
  -h, --help        show this help and exit

A numeric x parameter gives a numeric x axis; otherwise one tick per value.
gnuplot reads the data and every label from data files it only reads; the
PNG comes back on its standard output into a file this script creates.
Exit status: 0 written, 1 failure (gnuplot, unreadable table), 2 bad usage.
"""
ME = "chart"
NOT_PARAMS = {"run", "output", "summary", "trajectory", "metrics", "seconds", "wall_time_s",
              "version", "status", "host", "frames", "frames_asked", "sample"}
OPTIONS = {"--x": "", "--y": "polarization_mean", "--mean-over": "", "--title": "", "--size": "900x540",
           "-o": "chart.png", "--x-scale": "auto", "--caption-file": "", "--points-file": "", "--font-size": "13"}


def decided(rows, c, keys):
    """Whether column c has one value for each combination of the columns keys."""
    seen = {}
    for r in rows:
        if seen.setdefault(tuple(r[k] for k in keys), r[c]) != r[c]:
            return False
    return True


def label(s):
    """Text safe inside a data file and a gnuplot string: printable, no quotes."""
    s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if isinstance(s, str) else str(s)
    s = re.sub(r"[\x00-\x1f\x7f]", " ", s)
    return s.replace('"', "'").replace("\\", "/")


def script_string(s):
    """A gnuplot single-quoted string from a whitelist of characters."""
    s = re.sub(r"[^A-Za-z0-9 _.,:;=+()/%<>\[\]#-]", "_", label(s))
    return "'" + s + "'"


def num(s):
    try:
        v = float(s)
        return v if v == v and abs(v) != float("inf") else None
    except (TypeError, ValueError):
        return None


# 12 colours told apart by most readers (Paul Tol's muted scheme and four of
# his bright ones), then the point shapes: colour and shape repeat together
# only after 84 series, and the line's dash changes every 12
PALETTE = ("#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255",
           "#AA4499", "#EE6677", "#4477AA", "#BBBBBB")
SHAPES = (7, 5, 9, 11, 13, 6, 4)


def log_spaced(vs):
    """x values of one sign above 0 spread by a constant factor (three or more,
    and not evenly spaced): 0.001, 0.01, 0.1 or 1, 2, 4, 8."""
    vs = sorted(set(vs))
    if len(vs) < 3 or vs[0] <= 0:
        return False
    diffs = [b - a for a, b in zip(vs, vs[1:])]
    ratios = [b / a for a, b in zip(vs, vs[1:])]
    return max(diffs) / min(diffs) > 1.5 and min(ratios) >= 1.5 and max(ratios) / min(ratios) <= 1.5


def read_table(path):
    """(columns, rows as dicts of text) of a CSV table with a header: a row
    shorter than the header is padded with empty cells, a longer one cut.
    Usage when it cannot be read as such (a NUL byte, a cell over the csv
    module's limit, no header); Failure when it has no rows."""
    try:
        with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
            r = csv.reader(f)
            cols = next(r, None)
            if cols is None:
                raise Failure(f"'{label(path)}' has no rows")
            if not cols or any(c == "" for c in cols):
                raise Usage(f"'{label(path)}' is not a table: its first line is not a header of names")
            rows = [dict(zip(cols, cells + [""] * (len(cols) - len(cells)))) for cells in r]
    except OSError as e:
        raise Usage(f"cannot read '{label(path)}': {e.strerror}")
    except csv.Error as e:
        raise Usage(f"'{label(path)}' is not a CSV table: {label(str(e))} (line {r.line_num})")
    except MemoryError:
        raise Failure(f"'{label(path)}' is too large to hold")
    if not rows:
        raise Failure(f"'{label(path)}' has no rows")
    return list(dict.fromkeys(cols)), rows


def out_kind(path):
    return "svg" if path.lower().endswith(".svg") else "png"


def sweep_args(spec, column):
    """The arguments that chart a metric column of a sweep's table (its x,
    the mean over seeds when it has replicates, a scatter for a sample)."""
    reps = spec.get("replicates") or "seed" in [g[0] for g in spec["grid"]]
    args = ["--x", spec["chart_x"], "--y", column]
    if spec.get("sample"):
        args += ["--scatter"]
    if reps and spec["chart_x"] != "seed":
        args += ["--mean-over", "seed"]
    if spec.get("chart_logx"):
        args += ["--x-scale", "log"]
    return args


def parse(argv):
    """(options, table, overwrite, scatter), or None for --help; Usage when wrong."""
    o, table, overwrite, scatter, i = dict(OPTIONS), None, False, False, 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-h", "--help"):
            return None
        if a in ("-y", "--overwrite", "--scatter"):
            overwrite, scatter = overwrite or a != "--scatter", scatter or a == "--scatter"
            continue
        k, eq, v = a.partition("=") if a.startswith("--") else (a, "", "")
        if k in o:
            if not eq:
                if i >= len(argv):
                    raise Usage(f"{a} needs a value")
                v = argv[i]
                i += 1
            o[k] = v
        elif a.startswith("-") and a != "-":
            raise Usage(f"unknown option '{label(a)}'" + (did_you_mean(
                k, list(o) + ["-y", "--overwrite", "--scatter", "--help"]) or " (see --help)"))
        elif table is not None:
            raise Usage(f"one table only ('{label(table)}' and '{label(a)}')")
        else:
            table = a
    if table is None:
        raise Usage("no table given (see --help)")
    m = re.fullmatch(r"([0-9]{1,5})x([0-9]{1,5})", o["--size"])
    if not m or not (16 <= int(m.group(1)) <= 8192 and 16 <= int(m.group(2)) <= 8192):
        raise Usage(f"--size: '{label(o['--size'])}' is not WIDTHxHEIGHT (16 to 8192)")
    if not re.fullmatch(r"[0-9]{1,3}", o["--font-size"]) or not 6 <= int(o["--font-size"]) <= 200:
        raise Usage(f"--font-size: '{label(o['--font-size'])}' is not a size from 6 to 200 pixels")
    if not o["-o"]:
        raise Usage("-o needs a file name")
    if o["--x-scale"] not in ("auto", "linear", "log"):
        raise Usage(f"--x-scale: '{label(o['--x-scale'])}' is not auto, linear or log"
                    + did_you_mean(o["--x-scale"], ("auto", "linear", "log")))
    if same_file(o["-o"], table):
        raise Usage(f"-o '{label(o['-o'])}' is the table it reads; choose another file")
    check_output(o["-o"])
    if os.path.lexists(o["-o"]) and not overwrite:
        raise Usage(f"'{label(o['-o'])}' exists; -y overwrites it")
    return o, table, scatter


def layout(o, table, scatter):
    """What to draw from the table: {x, y, over, by, groups {series: {x: [y]}},
    xs, numeric, pos {x: position}, logx}."""
    cols, rows = read_table(table)
    if "status" in cols:
        rows = [r for r in rows if r["status"] == "complete"]
    x, y, over = o["--x"], o["--y"], o["--mean-over"]
    is_metric = lambda c: c.endswith("_final") or c.endswith("_mean")
    swept = [c for c in cols if c not in NOT_PARAMS and not is_metric(c) and len({r[c] for r in rows}) > 1]
    if not x:
        if not swept:
            raise Usage("no parameter varies between the rows; give --x")
        x = swept[0]
    for name, what in ((x, "--x"), (y, "--y")) + (((over, "--mean-over"),) if over else ()):
        if name not in cols:
            raise Usage(f"{what}: no column '{label(name)}' in '{label(table)}'" + label(did_you_mean(name, cols)))
    if not rows:
        raise Failure(f"no complete run in '{label(table)}'")
    by = [] if scatter else [c for c in swept if c not in (x, over)]
    # a parameter the x value decides (boids under --vicsek-density's grid) or one the
    # series before it decide (field and depth under a boids grid) is no series of its own
    keep = []
    for c in by:
        if not decided(rows, c, [x]) and not (keep and decided(rows, c, keep)):
            keep.append(c)
    by = keep
    groups = {}
    for r in rows:
        v = num(r[y])
        if v is not None:    # not finite: no point
            groups.setdefault(tuple(r[c] for c in by), {}).setdefault(r[x], []).append(v)
    xs = list(dict.fromkeys(r[x] for r in rows))
    numeric = all(num(v) is not None for v in xs)
    if numeric:
        xs.sort(key=float)
    pos = {v: (float(v) if numeric else float(k)) for k, v in enumerate(xs)}
    logx = {"log": True, "linear": False}.get(o["--x-scale"], numeric and log_spaced([pos[v] for v in xs]))
    if logx and not (numeric and all(pos[v] > 0 for v in xs)):
        raise Usage("--x-scale log: the x values must be numbers above 0")
    return {"x": x, "y": y, "over": over, "by": by, "groups": groups, "xs": xs, "numeric": numeric,
            "pos": pos, "logx": logx, "scatter": scatter}


def shift_step(L):
    """How far apart the series are drawn around each x: a share of the
    smallest gap between x values (a factor on a log axis), so that their
    error bars never overlap and each group stays nearer its own x."""
    n = len(L["groups"])
    if not L["over"] or n <= 1:
        return 0.0
    xsorted = sorted(L["pos"][v] for v in L["xs"])
    warp = math.log if L["logx"] else (lambda v: v)
    gaps = [warp(b) - warp(a) for a, b in zip(xsorted, xsorted[1:]) if warp(b) > warp(a)]
    return (min(gaps) if gaps else 1.0) * 0.5 / n


def write_series(L, work):
    """A data file per series; returns (gnuplot plot clauses, what was drawn, the n seen)."""
    plots, drawn, ns, step = [], [], set(), shift_step(L)
    nseries, bounds, pos = len(L["groups"]), bounds_of(L["y"]), L["pos"]
    for gi, (key, pts) in enumerate(L["groups"].items()):
        name = ", ".join(f"{c}={k}" for c, k in zip(L["by"], key)) or L["y"]
        shift = (gi - (nseries - 1) / 2) * step
        path = os.path.join(work, f"g{gi}.dat")
        colour, shape = PALETTE[gi % len(PALETTE)], SHAPES[gi % len(SHAPES)]
        with open(path, "w", encoding="utf-8") as d:
            d.write('x\tmean\tlo\thi\ttick\t"' + label(name) + '"\n')
            for xv in sorted(pts, key=lambda v: pos[v]):
                ds = describe(pts[xv], bounds)
                if ds["mean"] is None:
                    continue
                lo = ds["ci95_lo"] if ds["ci95_lo"] is not None else ds["mean"]
                hi = ds["ci95_hi"] if ds["ci95_hi"] is not None else ds["mean"]
                ns.add(ds["n"])
                xpos = math.exp(math.log(pos[xv]) + shift) if L["logx"] else pos[xv] + shift
                d.write(f"{xpos!r}\t{ds['mean']!r}\t{lo!r}\t{hi!r}\t\"{label(xv)}\"\t0\n")
                drawn.append((label(name), label(xv), xpos, ds["n"], ds["mean"], lo, hi, colour, shape))
        q = f"'{os.path.basename(path)}'"
        tick = "" if L["numeric"] else ":xtic(5)"
        style = f"lw 2 lc rgb '{colour}' pt {shape} ps 1.2 dt {1 + gi // len(PALETTE) % 5}"
        if L["scatter"]:
            plots.append(f"{q} using 1:2{tick} with points lc rgb '{colour}' pt {shape} ps 1 title columnheader(6)")
        elif L["over"]:
            plots.append(f"{q} using 1:2:3:4{tick} with yerrorlines {style} title columnheader(6)")
        else:
            plots.append(f"{q} using 1:2{tick} with linespoints {style} title columnheader(6)")
    return plots, drawn, ns or {0}


def caption(L, ns):
    """The words under the chart: what a point is, n, the interval's method."""
    nrange = f"{min(ns)}" if len(ns) == 1 else f"{min(ns)} to {max(ns)}"
    if L["over"]:
        text = (f"mean over {L['over']} (n = {nrange}) with its 95% interval, "
                f"{interval_method(bounds_of(L['y']))}"
                + ("; series moved sideways so their bars do not overlap" if shift_step(L) else "")
                + ("; n = 1 has no interval" if 1 in ns else ""))
    else:
        text = "one run a point" + ("" if max(ns) <= 1 else f" (n = {nrange} averaged)")
    return text + ("; log x axis" if L["logx"] else "")


def script(o, L, plots, cap):
    """The gnuplot script: sizes, labels (whitelisted), the plot clauses."""
    w, h = o["--size"].split("x")
    fs = int(o["--font-size"])
    svg = out_kind(o["-o"]) == "svg"
    y, x, nseries = L["y"], L["x"], len(L["groups"])
    ylabel = y.replace("_mean", " (mean over the frames)").replace("_final", " (final frame)")
    title = o["--title"] or f"{ylabel} against {x}"
    g = [f"set terminal {'svg' if svg else 'pngcairo'} size {w},{h} noenhanced font ',{fs}'"
         + (" background rgb 'white'" if svg else ""),
         "set datafile separator '\\t'", f"set title {script_string(title)}",
         f"set xlabel {script_string(x)}", f"set ylabel {script_string(ylabel)}",
         "set grid", "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05",
         "set key outside right top vertical" if nseries > 4 else "unset key" if nseries == 1
         else "set key tmargin center horizontal width 3"]  # a few series: a row under the title
    if L["over"] or L["scatter"]:
        # the caption on the picture's last lines, below the axis label, wrapped to the
        # picture's width (a character is at most about 0.7 of the font's size wide)
        cfs = max(fs - 1, 6)
        lines = textwrap.wrap(cap, max(20, int(int(w) / (0.7 * cfs))))
        for i, line in enumerate(reversed(lines)):
            g.append(f"set label {i + 1} {script_string(line)} at screen 0.01, screen "
                     f"{(1.0 + 1.6 * i) * cfs / int(h):.4f} font ',{cfs}'")
        g.append(f"set bmargin {3 + 2 * len(lines)}")
    if L["logx"]:
        g += ["set logscale x", "set format x '%g'"]
    if not L["numeric"]:
        g.append("set xtics rotate by -30")
    return "\n".join(g) + "\nplot " + ", \\\n     ".join(plots) + "\n"


def gnuplot(text, work, out):
    """Runs a gnuplot script (in work/, with its data files) whose picture
    comes on its standard output into out, through a temporary."""
    with open(os.path.join(work, "plot.gp"), "w", encoding="utf-8") as g:
        g.write(text)
    write_output_of(["gnuplot", "plot.gp"], out, work, ".chart.")


def main(argv):
    """scripts/chart."""
    parsed = parse(argv)
    if parsed is None:
        print(USAGE, end="")
        return 0
    o, table, scatter = parsed
    L = layout(o, table, scatter)
    if not shutil.which("gnuplot"):
        raise Failure("gnuplot is not installed (apt-get install gnuplot-nox)")
    work = tempfile.mkdtemp(prefix="boids-chart-")
    try:
        plots, drawn, ns = write_series(L, work)
        cap = caption(L, ns)
        if o["--points-file"]:
            with open(o["--points-file"], "w", encoding="utf-8") as f:
                f.write("series\tx\tx_drawn\tn\tmean\tlo\thi\tcolour\tshape\n")
                f.writelines("\t".join(str(v) for v in r) + "\n" for r in drawn)
        if o["--caption-file"]:
            with open(o["--caption-file"], "w", encoding="utf-8") as f:
                f.write(cap + "\n")
        if not plots:
            raise Failure(f"no number to draw in column '{label(L['y'])}'")
        gnuplot(script(o, L, plots, cap), work, o["-o"])
    except OSError as e:
        raise Failure(f"cannot write '{label(o['-o'])}': {e.strerror}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0
