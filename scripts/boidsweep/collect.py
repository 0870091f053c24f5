"""The end of a sweep (and --collect): every point's state read, the tables
written, the points without a complete run listed, the chart drawn and the
report written; returns the count of each kind of point.
"""
import json
import math
import os
import shutil
import sys
import time

from . import chart, report, sensitivity, tables
from .answer import LEVEL, answer
from .common import Failure, Usage, say
from .files import write_file
from .progress import Progress, timed
from .results import check_outputs, kind, report_missing, run_state


def collect(out, spec, pts, chart_too=True, exits=None, progress="never", report_too=True):
    """Tables, stats, the answer (answer.json), the sensitivity indices, the
    chart and the report; returns (the count of each kind() of point, the
    answer, the sensitivity result or None)."""
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
    tabled = tables.write_tables(out, spec, pts, states, write_file)
    report_missing(out, pts, states, exits)
    counts = {k: 0 for k in ("complete", "failed", "running", "missing")}
    for st, _ in states:
        counts[kind(st)] += 1
    if progress != "never":
        pr.mode = "lines" if pr.mode == "bar" else pr.mode
        pr.emit({"event": "collect", **counts, "total": len(pts)},
                "collect: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    t = timed("tables", t)
    found = answer(spec, tabled[1])
    found.update(rule(spec))
    write_file(os.path.join(out, "answer.json"), dump(found))
    sens = None
    if spec.get("sensitivity"):
        sens = sensitivity.analyse(spec, tabled[1], spec["sensitivity"])
        write_file(os.path.join(out, "sensitivity.json"), dump(sens))
        write_file(os.path.join(out, "sensitivity.csv"),
                   tables.csv_bytes(sensitivity.COLUMNS, sensitivity.table_rows(sens)))
    t = timed("answer", t)
    if chart_too and spec.get("chart_x") and counts["complete"]:
        draw_chart(out, spec)
        t = timed("chart", t)
    if report_too:
        try:
            report.write_report(out, spec, pts, states, tabled, found=found, sens=sens)
        except (Failure, OSError) as e:
            say(f"no report: {e}")
        timed("report", t)
    return counts, found, sens


def dump(obj):
    """JSON for a file, numbers that are not finite as null."""
    clean = lambda v: None if isinstance(v, float) and not math.isfinite(v) else \
        {k: clean(x) for k, x in v.items()} if isinstance(v, dict) else \
        [clean(x) for x in v] if isinstance(v, (list, tuple)) else v
    return (json.dumps(clean(obj), indent=1, ensure_ascii=True) + "\n").encode("ascii")


def rule(spec):
    """--replicates auto's stopping rule and its history, for the answer."""
    auto = spec.get("auto")
    if not auto:
        return {}
    looks = auto["looks"]
    done = 1 + len(spec.get("rounds") or [])
    return {"stopping_rule": (
        f"--replicates auto:{auto['max']}: {looks[0]} seeds a point, then more for the points still in "
        f"contention at looks after {', '.join(map(str, looks))} seeds; at each look Welch's t-tests of the "
        f"best against every other point, corrected for every pair of the points (the data pick the best), "
        f"at level {1 - LEVEL:g}/{len(looks)} = "
        f"{(1 - LEVEL) / len(looks):.4g} (Bonferroni over the {len(looks)} looks), so the chance that any look "
        f"calls a difference that is not real stays under {1 - LEVEL:.0%}; stop when the best is told apart "
        f"from every other point, or after the last look"), "looks_done": done}


def draw_chart(out, spec):
    """DIR/chart.png (scripts/chart's code, in this process)."""
    if not shutil.which("gnuplot"):
        say("gnuplot is not installed: no chart (apt-get install gnuplot-nox)")
        return
    args = chart.sweep_args(spec, f"{spec['chart_y']}_{spec['chart_stat']}")
    args += ["-y", "-o", os.path.join(os.path.abspath(out), "chart.png"),
             os.path.join(os.path.abspath(out), "table.csv")]
    try:
        chart.main(args)
        return
    except (Usage, Failure) as e:
        print(f"{chart.ME}: {e}", file=sys.stderr, flush=True)
    say("no chart (see above)")
