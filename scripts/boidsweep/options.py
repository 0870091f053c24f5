"""The sweep's command line: its own options (parse_args()) and the boids
options given to every run (split_boids_options(), checked against boids'
--list-options).
"""
from .common import Usage, did_you_mean, shown

USAGE = """\
Usage: scripts/sweep --grid 'NAME=V1,V2,...' [--grid ...] [OPTION]... [BOIDS OPTION]... [-- BOIDS OPTION...]
       scripts/sweep --resume|--collect|--task I|--count --out DIR
Run boids once for every combination of the --grid values, each with its own
config file and --summary, then combine the summaries into DIR/table.csv (and
table.jsonl, stats.csv, stats.jsonl), draw DIR/chart.png and write
DIR/report.html (scripts/sweep-report).  Options this script does not know are
boids options, given to every run.

Grid and runs:
  --grid 'NAME=V1,V2,...'  a long option of boids and its values (repeatable)
  --replicates K           run every point with seeds 1..K (a last grid 'seed');
                           the stats give mean, sd and 95% CI over the seeds
  --replicates auto[:MAX]  with --goal: 4 seeds, then more (8, 16, ... up to
                           MAX, 32 by default) for the points still in
                           contention, until the best is told apart; the
                           stopping rule keeps the error rate at 5% (report)
  --out DIR                sweep directory, created by the sweep [sweep-out]
  --ext EXT                video of each run: runs/NAME.EXT [mp4]; none with
                           --no-render among the boids options
  --with-trajectory        also write runs/NAME.csv (scripts/contact-sheet)
  --with-metrics           also write runs/NAME.metrics.csv
  --bin PATH               the boids binary [$BOIDS, else build/boids, else boids]
  -j, --jobs N             runs at a time per machine (Slurm: tasks at a time)
  --resume                 finish the sweep in DIR: every point without a
                           complete summary made with the sweep's options runs
                           again (the grid and options stored in DIR)

The question, and points beyond a grid:
  --goal METRIC:max|min    the answer first: the best point, its runner-up and
                           whether they differ (Welch's t-test, corrected for
                           every pair of the points) and the replicates that
                           would tell them apart: DIR/answer.json, the report's
                           first section and the sweep's last line.  METRIC:
                           polarization... (the --chart-stat), or
                           polarization_final, polarization_mean...
  --range NAME=LO:HI[:log] a numeric boids option sampled over [LO, HI] (a log
                           scale with :log); repeatable; needs --sample
  --sample lhs:N[:SEED]    N points of a scrambled Latin hypercube over the
  --sample sobol:N[:SEED]  ranges, or of a scrambled Sobol sequence (N best a
                           power of 2); each a point like a grid point (run
                           name sample=J,...), crossed with any --grid [SEED 1]
  --sensitivity METRIC     which ranges matter to METRIC: Saltelli's design,
                           N(k+2) points for k ranges (--sample sobol:N, 64 by
                           default), first-order and total Sobol indices with
                           bootstrap intervals: DIR/sensitivity.csv, the report

Several machines (GNU parallel):
  --sshloginfile FILE      spread runs over the machines in FILE (GNU parallel
                           syntax, ':' is this one); shared disk: DIR and the
                           binary at the same paths everywhere
  --transfer               no shared disk: configs go out, results come back
  --retries N              run a failed run again up to N times, elsewhere
  --filter-hosts           leave out machines that do not answer
  --timeout T              stop a run after T seconds (or N% of the median)

Slurm:
  --slurm                  write DIR/sweep.sbatch (an array, one task a point,
                           --jobs at a time) and DIR/collect.sbatch, submit them
  --no-submit              with --slurm: write the scripts only
  --wait                   with --slurm: wait for the array, then collect here
  --sbatch-opt OPT         an sbatch option for both scripts (repeatable),
                           e.g. --sbatch-opt=--time=01:00:00

One point at a time, and the results:
  --count                  print the number of grid points and exit
  --task I                 run grid point I (0-based, decimal) here; nothing
                           happens if it has a complete summary
  --collect                (re)build the tables, the chart and the report from
                           DIR; a running point (runs/NAME.running) is told
                           from one that died and one not started
  --chart-x NAME           parameter on the x axis [the first --grid]
  --chart-y METRIC         polarization, milling, mean_speed, nn_distance,
                           gyration_radius or clusters [polarization]
  --chart-stat STAT        mean (over the frames) or final [mean]
  --chart-logx             a log scale on the x axis (automatic when the x
                           values grow by a constant factor: 0.001, 0.01, 0.1)
  --no-chart               no chart
  --progress HOW           auto: on a terminal one line redrawn (points done,
                           failed, running, elapsed, time left), otherwise a
                           line per point that ends; lines (or plain): a line
                           per event; json: a JSON object per event; never
  -h, --help               show this help and exit

Exit status: 0 every point has a complete run, 1 a point lacks one (they are
listed with their logs) or something failed, 2 bad usage (nothing written),
3 (--collect) no point failed but some are still running or not started.

Example:
  scripts/sweep --grid 'align-weight=0,0.01,0.05' --replicates 3 --frames 200 -- --no-render
"""


WITH_VALUE = {"--grid": "grid", "--out": "out", "--ext": "ext", "--bin": "bin",
              "--jobs": "jobs", "-j": "jobs", "--sshloginfile": "sshloginfile",
              "--retries": "retries", "--timeout": "timeout", "--sbatch-opt": "sbatch_opts",
              "--task": "task", "--chart-x": "chart_x", "--chart-y": "chart_y",
              "--chart-stat": "chart_stat", "--replicates": "replicates",
              "--progress": "progress", "--goal": "goal", "--range": "range", "--sample": "sample",
              "--sensitivity": "sensitivity"}
FLAGS = {"--with-trajectory": "with_traj", "--with-metrics": "with_metrics",
         "--resume": "resume", "--transfer": "transfer", "--filter-hosts": "filter_hosts",
         "--slurm": "slurm", "--no-submit": "no_submit", "--wait": "wait",
         "--count": "count", "--collect": "collect", "--no-chart": "no_chart", "--chart-logx": "chart_logx"}


def parse_args(argv):
    o = {"grid": [], "out": None, "ext": None, "with_traj": False, "with_metrics": False,
         "bin": None, "jobs": None, "resume": False, "sshloginfile": None, "transfer": False,
         "retries": None, "filter_hosts": False, "timeout": None, "slurm": False,
         "no_submit": False, "wait": False, "sbatch_opts": [], "count": False, "task": None,
         "collect": False, "chart_x": None, "chart_y": None, "chart_stat": None,
         "no_chart": False, "chart_logx": False, "replicates": None, "progress": None, "boids": [],
         "help": False, "goal": None, "range": [], "sample": None, "sensitivity": None}
    with_value, flags = WITH_VALUE, FLAGS
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            o["boids"] += argv[i:]
            break
        if a in ("-h", "--help"):
            o["help"] = True
            return o
        name, eq, val = a.partition("=") if a.startswith("--") else (a, "", "")
        if name in with_value:
            if not eq:
                if i >= len(argv):
                    raise Usage(f"{a} needs a value")
                val = argv[i]
                i += 1
            key = with_value[name]
            if isinstance(o[key], list):
                o[key].append(val)
            else:
                o[key] = val
        elif a in flags:
            o[flags[a]] = True
        else:
            o["boids"].append(a)
    return o


def split_boids_options(words, opts):
    """Boids options -> [(name, value or None)], checked against --list-options."""
    shorts = {v["short"]: v for v in opts.values() if v.get("short")}
    out, i = [], 0
    while i < len(words):
        a = words[i]
        i += 1
        if a.startswith("--") and len(a) > 2:
            name, eq, val = a[2:].partition("=")
            o = opts.get(name)
            if not o:
                raise Usage(f"unknown option '{shown(a)}'" + (did_you_mean(
                    name, [k[2:] for k in list(WITH_VALUE) + list(FLAGS) + ["--help"] if k.startswith("--")]
                    + list(opts), "--") or " (see --help, and boids --help)"))
        elif a.startswith("-") and len(a) > 1:
            o = shorts.get(a[1])
            if not o:
                raise Usage(f"unknown option '{shown(a)}' (see --help, and boids --help)")
            eq, val = (True, a[2:]) if len(a) > 2 else ("", "")
            if len(a) > 2 and not o["takes_value"]:
                raise Usage(f"'{shown(a)}': give boids flags one at a time")
        else:
            raise Usage(f"unexpected argument '{shown(a)}' (boids options go before or after --)")
        if o["type"] == "action" and o["name"] != "config":
            raise Usage(f"boids option '--{o['name']}' cannot be given to a sweep")
        if o["takes_value"]:
            if not eq:
                if i >= len(words):
                    raise Usage(f"--{o['name']} needs a value")
                val = words[i]
                i += 1
            out.append((o["name"], val))
        else:
            if eq:
                raise Usage(f"--{o['name']} takes no value")
            out.append((o["name"], None))
    for name, _ in out:
        if name == "output":
            raise Usage("boids option '-o': each run's output is runs/NAME.EXT (use --ext)")
        if name in ("summary", "trajectory", "metrics"):
            use = {"summary": "each run's summary is runs/NAME.json",
                   "trajectory": "use --with-trajectory (runs/NAME.csv)",
                   "metrics": "use --with-metrics (runs/NAME.metrics.csv)"}[name]
            raise Usage(f"boids option '--{name}': {use}")
    return out
