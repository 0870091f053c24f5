"""Running and collecting a sweep: do_sweep() (a new sweep, --resume,
--count, --slurm), do_collect() (--collect) and scripts/sweep-report
(report_main()).  A sweep goes:
the spec built and checked (grid), the points set up (prepare), run
(parallel or slurm; in rounds with --replicates auto), collected (collect).
command.main() dispatches scripts/sweep's modes here or to slurm.do_task().
"""
import os
import shlex
import sys

from . import design, report
from .boids import check_bin_owner, find_bin, list_options
from .collect import collect
from .common import PROG, T0, Usage, did_you_mean, say, shown
from .files import check_output, read_file, same_file, write_file
from .grid import build_spec, count_points, same_definition
from .hosts import check_hosts, parse_logins
from .parallel import run_parallel
from .prepare import add_points, set_up
from .progress import Progress, say_phases, timed
from .results import read_summary, run_state, summary_line
from .rounds import next_round
from .slurm import run_array, submit_slurm
from .sweepdir import dump_json, load_spec, open_dir, read_grid
from .tables import table_rows


def do_collect(o, spec=None):
    """--collect: the tables, answer, chart and report of the sweep in --out."""
    out = o["out"]
    open_dir(out)
    spec = load_spec(out)
    for k in ("chart_x", "chart_y", "chart_stat", "chart_logx"):
        if o[k]:
            spec[k] = o[k]
    if o["goal"]:
        spec["goal"] = design.parse_goal(o["goal"], spec.get("chart_stat") or "mean")
    pts = read_grid(out)
    counts, found, _ = collect(out, spec, pts, not o["no_chart"], progress=o["progress"])
    return closing(out, len(pts), counts, found, collecting=True)


def closing(out, n, counts, found, collecting=False):
    """The closing line, then the answer's: the exit status."""
    st = summary_line(out, n, counts, collecting)
    print(f"{PROG[0]}: answer: {found['sentence']}", flush=True)
    return st


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
    auto, sample = stored.get("auto"), stored.get("sample")
    reps = f"auto:{auto['max']}" if auto else str(stored["replicates"]) if stored.get("replicates") else None
    return {**o, "grid": [f"{n}={','.join(v)}" for n, v in stored["grid"]
                          if not (stored.get("replicates") and n == "seed")],
            "replicates": reps,
            "boids": [w for n, v in stored["fixed"] for w in ([f"--{n}"] if v is None else [f"--{n}={v}"])],
            "ext": stored["ext"], "with_traj": stored["with_traj"], "with_metrics": stored["with_metrics"],
            "chart_x": o["chart_x"] or stored["chart_x"], "chart_y": o["chart_y"] or stored["chart_y"],
            "chart_stat": o["chart_stat"] or stored["chart_stat"],
            "chart_logx": o["chart_logx"] or stored.get("chart_logx"),
            "range": [f"{r[0]}={r[1]}:{r[2]}:{r[3]}" for r in stored.get("ranges") or []],
            "sample": f"{'sobol' if sample['method'] == 'saltelli' else sample['method']}:{sample['n']}:"
                      f"{sample['seed']}" if sample else None,
            "sensitivity": stored.get("sensitivity"),
            "goal": o["goal"] or (f"{stored['goal']['column']}:{stored['goal']['direction']}"
                                  if stored.get("goal") else None)}


def the_spec(o, stored, b, version, opts):
    """The sweep's definition from the command line, or (--resume) the stored
    one read back by this binary; Usage when they differ."""
    out = o["out"]
    if stored and not (o["grid"] or o["boids"] or o["replicates"] or o["range"]):
        redo = build_spec(stored_as_typed(o, stored), b, version, opts)
        if not same_definition(redo, stored):
            raise Usage(f"--resume: the sweep in '{shown(out)}' does not read back the same (edited sweep.json?)")
        redo["rounds"] = stored.get("rounds") or []
        same_goal(redo, stored, out)
        return redo
    spec = build_spec(o, b, version, opts)
    if stored and not same_definition(spec, stored):
        raise Usage(f"--resume: the grid or options differ from the sweep in '{shown(out)}' "
                    "(leave out --grid and the boids options to use its own)")
    if stored:
        spec["rounds"] = stored.get("rounds") or []
        same_goal(spec, stored, out)
    return spec


def same_goal(spec, stored, out):
    """--replicates auto's rounds went to the points in contention for the
    stored goal: resumed, they go on answering that one (another goal is
    --collect's, from the runs made)."""
    g = stored.get("goal")
    if stored.get("auto") and g and spec.get("goal") != g:
        raise Usage(f"--resume: the rounds of --replicates auto in '{shown(out)}' answer --goal "
                    f"{g['column']}:{g['direction']}; resume without --goal, or answer another with --collect --goal")


def the_design(out, spec, stored):
    """A sampled design's points: drawn for a new sweep, read back from
    DIR/design.csv for --resume; None without a sample."""
    if not spec.get("sample"):
        return None
    if not stored:
        for note in design.notes(spec):
            say(note)
        return design.design_rows(spec)
    try:
        return design.read_design(read_file(os.path.join(out, "design.csv")) or b"", spec)
    except ValueError as e:
        raise Usage(f"--resume: '{shown(out)}/design.csv' is not the sweep's design: {e}")


def do_sweep(o):
    """A new sweep or --resume: set up, run every point without a complete
    run (in rounds with --replicates auto), collect."""
    out = o["out"]
    if not (o["resume"] or o["grid"] or o["replicates"] or o["range"]):
        raise Usage("no --grid given (see --help)")
    stored = None
    if o["resume"]:
        open_dir(out)
        stored = load_spec(out)
    b, version, opts = the_binary(o, stored)
    spec = the_spec(o, stored, b, version, opts)
    if spec.get("auto") and o["slurm"] and not o["wait"]:
        raise Usage("--replicates auto decides each round when the last has ended: give --slurm --wait")
    if o["count"]:
        print(count_points(spec))
        return 0
    logins = parse_logins(o["sshloginfile"]) if o["sshloginfile"] else None
    spec["command"] = stored.get("command") if stored else shlex.join(sys.argv)
    set_up(out, spec, b, stored, the_design(out, spec, stored))
    write_file(os.path.join(out, "sweep.json"), dump_json(spec))
    n = count_points(spec)
    if o["slurm"] and not o["wait"]:
        # the set-up never holds the grid (100,000 points read back are 150 MB of Python objects)
        return submit_slurm(out, spec, o, n)
    pts = read_grid(out)
    t = timed("set-up", T0[0])
    todo = todo_of(out, pts)
    print(f"{PROG[0]}: {n} points, {len(todo)} to run, in '{shown(out)}'", flush=True)
    if logins and todo:
        check_hosts(out, spec, o, logins)
    exits = run_points(out, spec, o, pts, 0, todo)
    while spec.get("auto"):
        pts, more = next_look(out, spec, b, pts)
        if not more:
            break
        exits.update(run_points(out, spec, o, pts, more))
    timed("runs", t)
    counts, found, _ = collect(out, spec, pts, not o["no_chart"], exits, o["progress"])
    say_phases(o["progress"])
    return closing(out, len(pts), counts, found)


def todo_of(out, pts):
    return [p for p in pts if read_summary(out, p)[0] != "complete"]


def run_points(out, spec, o, pts, first, todo=None):
    """The points from index first without a complete run (todo, when known),
    run by GNU parallel or (--slurm --wait) a job array; {point: exit status}."""
    todo = todo_of(out, pts[first:]) if todo is None else todo
    if not todo:
        return {}
    progress = Progress(o["progress"], len(pts), len(pts) - len(todo) - (len(todo_of(out, pts[:first])) if first else 0))
    if o["slurm"]:
        return run_array(out, spec, o, todo, first, len(pts), progress)
    return run_parallel(out, spec, o, todo, pts, progress)


def next_look(out, spec, b, pts):
    """--replicates auto: a look at the answer; the next round's points set
    up and stored when the best is not told apart yet.  Returns (the
    points, the index of the first new one or 0)."""
    states = [run_state(out, p) for p in pts]
    rnd, why = next_round(spec, table_rows(spec, pts, states)[1])
    say(f"--replicates auto: {why}")
    if rnd is None:
        return pts, 0
    first = count_points(spec)
    spec["rounds"].append(rnd)
    add_points(out, spec, b, first)
    write_file(os.path.join(out, "sweep.json"), dump_json(spec))
    return read_grid(out), first


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
        check_output(dest)
        ins = [os.path.join(d, f) for f in ("sweep.json", "grid.jsonl", "grid.idx", "table.csv")]
        ins += [os.path.join(d, "runs", p["name"] + x) for p in pts for x in (".json", ".log")]
        for f in ins:
            if (os.path.lexists(f) or not os.path.lexists(dest)) and same_file(dest, f):
                raise Usage(f"-o '{shown(dest)}' is one of the files it reads ('{shown(f)}')")
    counts, found, sens = collect(d, spec, pts, chart_too=False, report_too=False)
    states = [run_state(d, p) for p in pts]
    out = report.write_report(d, spec, pts, states, table_rows(spec, pts, states), dest, found, sens)
    print(f"{PROG[0]}: {sum(counts.values())} points in {shown(out)}")
    return 0
