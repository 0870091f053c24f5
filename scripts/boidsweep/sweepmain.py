"""The commands that run or collect a sweep: scripts/sweep (main(): a new
sweep, --resume, --collect, --count, --task, --slurm), scripts/sweep-table
(table_main()) and scripts/sweep-report (report_main()).  A sweep goes:
the spec built and checked (grid), the points set up (prepare), run
(parallel or slurm), collected (collect).
"""
import os
import re
import shlex
import sys
import time

from . import report
from .boids import check_bin_owner, find_bin, list_options
from .collect import collect
from .common import PROG, Usage, did_you_mean, say, shown
from .files import same_file, write_file
from .grid import build_spec, count_points, same_definition
from .hosts import check_hosts, parse_logins
from .options import USAGE, parse_args
from .parallel import run_parallel
from .prepare import set_up
from .progress import T0, Progress, say_phases, timed
from .results import read_summary, run_state, summary_line
from .slurm import do_task, submit_slurm
from .sweepdir import dump_json, load_spec, open_dir, read_grid
from .tables import table_rows


def check_options(o):
    """The sweep's own options that need no binary: Usage when one is wrong."""
    modes = [m for m in ("count", "collect", "resume", "slurm") if o[m]] + (["task"] if o["task"] is not None else [])
    if len(set(modes) - {"slurm", "resume"}) > 1 or (o["slurm"] and ({"count", "collect", "task"} & set(modes))):
        raise Usage(f"--{' and --'.join(modes)} do not go together")
    if o["out"] is None:
        o["out"] = "sweep-out"
    if o["out"] == "":
        raise Usage("--out needs a directory")
    if o["retries"] is not None and not re.fullmatch(r"[0-9]{1,4}", o["retries"]):
        raise Usage(f"--retries: '{shown(o['retries'])}' is not a number")
    if o["timeout"] is not None and not re.fullmatch(r"[0-9]+(\.[0-9]+)?%?", o["timeout"]):
        raise Usage(f"--timeout: '{shown(o['timeout'])}' is not seconds (or N%)")
    if o["jobs"] is not None and not re.fullmatch(r"[0-9]{1,6}%?", o["jobs"]):
        raise Usage(f"--jobs: '{shown(o['jobs'])}' is not a number of jobs")
    o["progress"] = {"plain": "lines"}.get(o["progress"], o["progress"] or "auto")
    if o["progress"] not in ("auto", "lines", "json", "never"):
        raise Usage(f"--progress: '{shown(o['progress'])}' is not auto, lines (plain), json or never"
                    + did_you_mean(o["progress"], ("auto", "lines", "plain", "json", "never")))
    if o["transfer"] and not o["sshloginfile"]:
        raise Usage("--transfer needs --sshloginfile")
    if (o["no_submit"] or o["wait"] or o["sbatch_opts"]) and not o["slurm"]:
        raise Usage("--no-submit, --wait and --sbatch-opt go with --slurm")


def do_collect(o):
    """--collect: the tables, chart and report of the sweep in --out."""
    out = o["out"]
    open_dir(out)
    spec = load_spec(out)
    for k in ("chart_x", "chart_y", "chart_stat", "chart_logx"):
        if o[k]:
            spec[k] = o[k]
    pts = read_grid(out)
    counts = collect(out, spec, pts, not o["no_chart"], progress=o["progress"])
    return summary_line(out, len(pts), counts, collecting=True)


def the_binary(o, stored):
    """The binary a new sweep or --resume runs, checked, with its options."""
    out = o["out"]
    if o["bin"] or not stored:
        b = find_bin(o["bin"])
    else:
        b = stored["bin"]
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            raise Usage(f"--resume: the sweep's binary '{shown(b)}' is gone; give --bin PATH")
        say(f"--resume: using the binary stored in '{shown(out)}/sweep.json': '{shown(b)}' (--bin to choose another)")
    check_bin_owner(b)
    version, opts = list_options(b)
    return b, version, opts


def stored_as_typed(o, stored):
    """--resume without a grid: the stored sweep's command line, to be
    checked again by this binary as if typed."""
    return {**o, "grid": [f"{n}={','.join(v)}" for n, v in stored["grid"]
                          if not (stored.get("replicates") and n == "seed")],
            "replicates": str(stored["replicates"]) if stored.get("replicates") else None,
            "boids": [w for n, v in stored["fixed"] for w in ([f"--{n}"] if v is None else [f"--{n}={v}"])],
            "ext": stored["ext"], "with_traj": stored["with_traj"], "with_metrics": stored["with_metrics"],
            "chart_x": o["chart_x"] or stored["chart_x"], "chart_y": o["chart_y"] or stored["chart_y"],
            "chart_stat": o["chart_stat"] or stored["chart_stat"],
            "chart_logx": o["chart_logx"] or stored.get("chart_logx")}


def the_spec(o, stored, b, version, opts):
    """The sweep's definition from the command line, or (--resume) the stored
    one read back by this binary; Usage when they differ."""
    out = o["out"]
    if stored and not (o["grid"] or o["boids"] or o["replicates"]):
        redo = build_spec(stored_as_typed(o, stored), b, version, opts)
        if not same_definition(redo, stored):
            raise Usage(f"--resume: the sweep in '{shown(out)}' does not read back the same (edited sweep.json?)")
        return redo
    spec = build_spec(o, b, version, opts)
    if stored and not same_definition(spec, stored):
        raise Usage(f"--resume: the grid or options differ from the sweep in '{shown(out)}' "
                    "(leave out --grid and the boids options to use its own)")
    return spec


def do_sweep(o):
    """A new sweep or --resume: set up, run every point without a complete
    run, collect."""
    out = o["out"]
    if not (o["resume"] or o["grid"] or o["replicates"]):
        raise Usage("no --grid given (see --help)")
    stored = None
    if o["resume"]:
        open_dir(out)
        stored = load_spec(out)
    b, version, opts = the_binary(o, stored)
    spec = the_spec(o, stored, b, version, opts)
    if o["count"]:
        print(count_points(spec))
        return 0
    n = count_points(spec)
    logins = parse_logins(o["sshloginfile"]) if o["sshloginfile"] else None
    spec["command"] = stored.get("command") if stored else shlex.join(sys.argv)
    set_up(out, spec, b, stored)
    write_file(os.path.join(out, "sweep.json"), dump_json(spec))
    # a submitted array is watched only with --wait: otherwise the set-up never
    # holds the grid (100,000 points read back are 150 MB of Python objects)
    pts = read_grid(out) if not o["slurm"] or o["wait"] else None
    t = timed("set-up", T0[0])
    if o["slurm"]:
        return submit_slurm(out, spec, o, n, pts)
    states = [read_summary(out, p) for p in pts]
    todo = [p for p, s in zip(pts, states) if s[0] != "complete"]
    print(f"{PROG[0]}: {n} points, {len(todo)} to run, in '{shown(out)}'", flush=True)
    exits = {}
    if todo:
        if logins:
            check_hosts(out, spec, o, logins)
        exits = run_parallel(out, spec, o, todo, pts, Progress(o["progress"], n, n - len(todo)))
    timed("runs", t)
    counts = collect(out, spec, pts, not o["no_chart"], exits, o["progress"])
    say_phases(o["progress"])
    return summary_line(out, n, counts)


def main(argv):
    """scripts/sweep."""
    T0[0] = time.monotonic()
    o = parse_args(argv)
    if o["help"]:
        print(USAGE, end="")
        return 0
    check_options(o)
    if o["task"] is not None:
        return do_task(o)
    if o["collect"]:
        return do_collect(o)
    return do_sweep(o)


TABLE_USAGE = """\
sweep-table DIR: (re)build the tables of a sweep made by scripts/sweep.

Writes, from DIR/grid.jsonl (the points) and DIR/runs/NAME.json (the
summaries), every file through a temporary and a rename:

  table.csv, table.jsonl   one row per grid point, in grid order: run, the
                           swept parameters, status (complete, interrupted by
                           signal N, failed, stale, bad, running, missing),
                           host, seconds,
                           frames, frames_asked, <metric>_final and
                           <metric>_mean, version, seed, every other parameter
  stats.csv, stats.jsonl   with a swept seed (--replicates): per point of the
                           other parameters, n and the mean, standard deviation
                           and 95% confidence interval (Student's t) of every
                           metric over the complete runs

In the CSV files a text cell starting with = + - @ (or a tab or carriage
return) gets a leading ' so that a spreadsheet shows it instead of evaluating
it; numbers stay numbers (-0.5 is not a formula).  Undecodable bytes appear
as \\xNN.  Exit status: 0 every point complete, 1 a point ended without a
complete run (listed), 2 bad usage, 3 nothing failed but points are running or
not started.  The same as scripts/sweep --collect --no-chart (which also
writes report.html).
"""


def table_main(argv):
    """scripts/sweep-table DIR: scripts/sweep --collect --no-chart --out DIR."""
    if len(argv) == 1 and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        raise Usage(f"unknown option '{shown(argv[0])}'"
                    + (did_you_mean(argv[0].partition("=")[0], ["--help"]) or " (see --help)"))
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(TABLE_USAGE.strip(), file=sys.stdout if len(argv) == 1 else sys.stderr)
        return 0 if len(argv) == 1 else 2
    return main(["--collect", "--no-chart", "--out", argv[0]])


def report_main(argv):
    """scripts/sweep-report [-o FILE] DIR."""
    dest, d, i = None, None, 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-h", "--help"):
            print(report.USAGE, end="")
            return 0
        if a in ("-o", "--output"):
            if i >= len(argv):
                raise Usage(f"{a} needs a file name")
            dest, i = argv[i], i + 1
        elif a.startswith("--output="):
            dest = a.partition("=")[2]
        elif a.startswith("-"):
            raise Usage(f"unknown option '{shown(a)}'" + (did_you_mean(a.partition("=")[0], ["--help", "--output"])
                                                          or " (see --help)"))
        elif d is not None:
            raise Usage(f"one sweep directory only ('{shown(d)}' and '{shown(a)}')")
        else:
            d = a
    if d is None:
        raise Usage("no sweep directory given (see --help)")
    open_dir(d)
    spec = load_spec(d)
    pts = read_grid(d)
    if dest:
        ins = [os.path.join(d, f) for f in ("sweep.json", "grid.jsonl", "grid.idx", "table.csv")]
        ins += [os.path.join(d, "runs", p["name"] + x) for p in pts for x in (".json", ".log")]
        for f in ins:
            if (os.path.lexists(f) or not os.path.lexists(dest)) and same_file(dest, f):
                raise Usage(f"-o '{shown(dest)}' is one of the files it reads ('{shown(f)}')")
    counts = collect(d, spec, pts, chart_too=False, report_too=False)
    states = [run_state(d, p) for p in pts]
    out = report.write_report(d, spec, pts, states, table_rows(spec, pts, states), dest)
    print(f"{PROG[0]}: {sum(counts.values())} points in {shown(out)}")
    return 0
