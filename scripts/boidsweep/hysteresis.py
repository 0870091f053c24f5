"""scripts/hysteresis: a chained sweep of one parameter, up through its
values and back down, each run started from the last frame of the run
before it (--init), so that a collective state can outlive the parameter
that made it: Couzin et al.'s collective memory (docs/MODELS-FIELD.md).
Its table is the sweep's (tables.csv_bytes) and its charts chart's.
"""
import os
from concurrent.futures import ThreadPoolExecutor

from . import chart, common, tables
from .boids import check_bin_owner, find_bin, run_boids
from .common import METRICS, Failure, Usage, json_value
from .files import posix_quote, read_file, write_file
from .results import metric

USAGE = """\
Usage: scripts/hysteresis --param NAME --values V1,V2,... [OPTION]... [-- BOIDS OPTION...]
Sweep one parameter of boids up through its values and back down, each run
of a chain starting from the last frame of the run before it (--init): the
way up from the model's own start, the way down from the top of the way up.
Every chain (replicate) does the same with its own seeds.  Writes, in DIR:

  runs/up-K-cR.json, runs/down-K-cR.json   each run's summary (--summary),
                    K the value's place, R the chain; .csv beside it its
                    first and last frames (the next run's --init)
  table.csv         a row a run: the parameter, sweep (up or down), chain,
                    status and every metric's _mean (over the measured
                    frames) and _final, as scripts/sweep's table.csv
  polarization.png, milling.png   the metric's mean over the chains against
                    the parameter, up and down, with 95% intervals
                    (scripts/chart)

  --param NAME      a long option of boids that takes a number
  --values LIST     its values, in increasing order (two or more)
  --replicates R    chains [3]
  --steps N         steps a run [2000]; the last --measure of them are its frames
  --measure M       frames a run measures (the metrics' _mean) [500], >= 2
  --out DIR         the directory, created here [hysteresis-out]
  --bin PATH        the boids binary [$BOIDS, else build/boids, else boids]
  -j, --jobs N      chains at a time [the processors]
  --no-chart        no charts (they need gnuplot)
  -h, --help        show this help and exit

Options after -- (or that this script does not know) go to every run, such as
-m couzin --couzin-attraction 14.  Seeds: chain R's first run is --seed R, and
its K-th after that --seed 1000 R + K (the way down goes on counting), so no
two runs share their noise.  The top value's run ends the way up and begins
the way down (in both series of the table).
Exit status: 0 every run complete, 1 a run failed (its chain stops there),
2 bad usage (nothing written).
"""
ME = "hysteresis"


def parse(argv):
    o = {"--param": "", "--values": "", "--replicates": "3", "--steps": "2000", "--measure": "500",
         "--out": "hysteresis-out", "--bin": "", "--jobs": str(os.cpu_count() or 1), "--no-chart": ""}
    boids, i = [], 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-h", "--help"):
            print(USAGE, end="")
            return None
        if a == "--no-chart":
            o["--no-chart"] = "yes"
            continue
        if a == "--":
            boids += argv[i:]
            break
        k, eq, v = a.partition("=") if a.startswith("--") else (a, "", "")
        k = "--jobs" if k == "-j" else k
        if k in o:
            if not eq:
                if i >= len(argv):
                    raise Usage(f"{a} needs a value")
                v, i = argv[i], i + 1
            o[k] = v
        else:
            boids.append(a)
    if not o["--param"] or not o["--values"]:
        raise Usage("--param and --values are needed (see --help)")
    try:
        values = [float(v) for v in o["--values"].split(",")]
    except ValueError:
        raise Usage(f"--values: '{o['--values']}' is not a list of numbers")
    if len(values) < 2 or any(b <= a for a, b in zip(values, values[1:])):
        raise Usage("--values: two or more numbers, increasing")
    n = {}
    for k, lo in (("--replicates", 1), ("--steps", 2), ("--measure", 2), ("--jobs", 1)):
        if not o[k].isdigit() or int(o[k]) < lo or int(o[k]) > 10 ** 8:
            raise Usage(f"{k}: '{o[k]}' is not a whole number from {lo}")
        n[k] = int(o[k])
    if n["--measure"] > n["--steps"]:
        raise Usage(f"--measure ({n['--measure']}) must not be above --steps ({n['--steps']})")
    if os.path.lexists(o["--out"]):
        raise Usage(f"'{o['--out']}' exists; choose another --out")
    for bad in ("-o", "--output", "--summary", "--trajectory", "--trajectory-every", "--init", "--init-frame",
                "--warmup", "-f", "--frames", "--duration", "--seed"):
        if any(b == bad or b.startswith(bad + "=") for b in boids):
            raise Usage(f"{bad} is this script's to set, not a boids option to give")
    binary = find_bin(o["--bin"])
    check_bin_owner(binary)
    return o, values, n, boids, binary


def points(values):
    """(sweep, K, value) in a chain's order: up through every value, then down."""
    up = [("up", k, v) for k, v in enumerate(values)]
    down = [("down", k, values[k]) for k in range(len(values) - 2, -1, -1)]
    return up + down


def value_text(v):
    return f"{v:g}" if v == v and abs(v) < 1e15 else repr(v)


def check(binary, param, values, boids):
    """Every value through boids' own checks (--print-config): a bad one is
    boids' message and exit 2, before anything is written."""
    for v in values:
        st, _, err = run_boids(binary, [f"--{param}", value_text(v), "--no-render"] + boids + ["--print-config"])
        if st != 0:
            msg = err.strip().splitlines()[-1:] or [f"exit {st}"]
            raise Usage(f"{param}={value_text(v)}: {msg[0]}")


def run_chain(o, n, values, boids, binary, chain):
    """One chain, in order; returns its rows (a failed run ends it)."""
    rows, prev = [], None
    steps, measure = n["--steps"], n["--measure"]
    for k, (sweep, place, v) in enumerate(points(values)):
        name = f"{sweep}-{place:02d}-c{chain}"
        base = os.path.join(o["--out"], "runs", name)
        cmd = [binary, "-q", "--no-render", f"--{o['--param']}", value_text(v), "--seed",
               str(chain if k == 0 else 1000 * chain + k), "--warmup", str(steps - measure), "-f", str(measure),
               "--summary", base + ".json", "--trajectory", base + ".csv",
               "--trajectory-every", str(measure - 1)] + (["--init", prev] if prev else []) + boids
        st, _, err = run_boids(cmd[0], cmd[1:])
        try:
            s = json_value(read_file(base + ".json", 1 << 24) or b"")
        except (Failure, ValueError):
            s = None
        status = s.get("status") if isinstance(s, dict) else None
        row = {o["--param"]: value_text(v), "sweep": sweep, "chain": chain, "run": name,
               "status": "complete" if st == 0 and status == "complete" else "failed"}
        for m in METRICS:
            row[m + "_mean"], row[m + "_final"] = metric(s, m, "mean"), metric(s, m, "final")
        rows.append(row)
        if sweep == "up" and place == len(values) - 1:
            rows.append(dict(row, sweep="down"))  # the top: the end of the way up, the start of the way down
        if row["status"] != "complete":
            why = err.splitlines()[-1:] or [f"exit {st}"]
            common.say(f"chain {chain}: {name} failed: {why[0]}\n  {' '.join(map(posix_quote, cmd))}")
            return rows, False
        prev = base + ".csv"
    return rows, True


def main(argv):
    parsed = parse(argv)
    if parsed is None:
        return 0  # --help
    o, values, n, boids, binary = parsed
    check(binary, o["--param"], values, boids)
    os.makedirs(os.path.join(o["--out"], "runs"))
    chains = range(1, n["--replicates"] + 1)
    with ThreadPoolExecutor(max_workers=n["--jobs"]) as pool:
        done = list(pool.map(lambda c: run_chain(o, n, values, boids, binary, c), chains))
    rows = [r for rs, _ in done for r in rs]  # chain after chain, each in its order
    cols = [o["--param"], "sweep", "chain", "run", "status"] + [m + s for m in METRICS for s in ("_mean", "_final")]
    table = os.path.join(o["--out"], "table.csv")
    write_file(table, tables.csv_bytes(cols, rows))
    for m in ("polarization", "milling"):
        if not o["--no-chart"] and any(r["status"] == "complete" for r in rows):
            chart.main(["--x", o["--param"], "--y", m + "_mean", "--mean-over", "chain", "--x-scale", "linear",
                        "--title", f"{m} (mean over the measured frames) against {o['--param']}, up and down",
                        "-o", os.path.join(o["--out"], m + ".png"), table])
    ok = all(good for _, good in done)
    common.say(f"{len(rows)} rows in {table}" + ("" if ok else "; some chains failed (above)"))
    return 0 if ok else 1
