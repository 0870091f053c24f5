"""The end of a sweep (and --collect): every point's state read, the tables
written, the points without a complete run listed, the chart drawn and the
report written; returns the count of each kind of point.
"""
import os
import shutil
import sys
import time

from . import chart, report, tables
from .common import Failure, Usage, say
from .files import write_file
from .progress import Progress, timed
from .results import check_outputs, kind, report_missing, run_state


def collect(out, spec, pts, chart_too=True, exits=None, progress="never", report_too=True):
    """Tables, stats, chart and report; returns the count of each kind() of point."""
    t = time.monotonic()
    check_outputs(out, pts)
    pr = Progress(progress, len(pts), what="points read")
    here, states = os.uname().nodename, []
    for p in pts:
        states.append(run_state(out, p, here))
        pr.done += 1
        if pr.done % 256 == 0:
            pr.bar()
    pr.close()
    rows = tables.write_tables(out, spec, pts, states, write_file)
    report_missing(out, pts, states, exits)
    counts = {k: 0 for k in ("complete", "failed", "running", "missing")}
    for st, _ in states:
        counts[kind(st)] += 1
    if progress != "never":
        pr.mode = "lines" if pr.mode == "bar" else pr.mode
        pr.emit({"event": "collect", **counts, "total": len(pts)},
                "collect: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    t = timed("tables", t)
    if chart_too and spec.get("chart_x") and counts["complete"]:
        draw_chart(out, spec)
        t = timed("chart", t)
    if report_too:
        try:
            report.write_report(out, spec, pts, states, rows)
        except (Failure, OSError) as e:
            say(f"no report: {e}")
        timed("report", t)
    return counts


def chart_args(out, spec, column):
    """scripts/chart's arguments for one metric column of the sweep's table."""
    reps = spec.get("replicates") or "seed" in [g[0] for g in spec["grid"]]
    args = ["--x", spec["chart_x"], "--y", column]
    if reps and spec["chart_x"] != "seed":
        args += ["--mean-over", "seed"]
    if spec.get("chart_logx"):
        args += ["--x-scale", "log"]
    return args


def draw_chart(out, spec):
    """DIR/chart.png (scripts/chart's code, in this process)."""
    if not shutil.which("gnuplot"):
        say("gnuplot is not installed: no chart (apt-get install gnuplot-nox)")
        return
    args = chart_args(out, spec, f"{spec['chart_y']}_{spec['chart_stat']}")
    args += ["-y", "-o", os.path.join(os.path.abspath(out), "chart.png"),
             os.path.join(os.path.abspath(out), "table.csv")]
    try:
        chart.main(args)
        return
    except (Usage, Failure) as e:
        print(f"{chart.ME}: {e}", file=sys.stderr, flush=True)
    say("no chart (see above)")
