"""scripts/sweep's command line, checked and sent to its mode; scripts/sweep-table
(table_main(): scripts/sweep --collect --no-chart).

A mode's modules are imported when it runs: the tools keep no bytecode
(nothing is written beside them), so every start compiles what it imports,
and a Slurm task (--task) runs once a point: it compiles the task's
modules only, not those of the set-up, the tables and the report.
"""
import re
import sys
import time

from .common import T0, Usage, did_you_mean, shown
from .options import USAGE, parse_args


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


def main(argv):
    """scripts/sweep."""
    T0[0] = time.monotonic()
    o = parse_args(argv)
    if o["help"]:
        print(USAGE, end="")
        return 0
    check_options(o)
    if o["task"] is not None:
        from .slurm import do_task
        return do_task(o)
    from . import sweepmain
    return sweepmain.do_collect(o) if o["collect"] else sweepmain.do_sweep(o)


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
