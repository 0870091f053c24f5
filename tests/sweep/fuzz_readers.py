#!/usr/bin/env python3
"""The sweep scripts' readers fed hostile and random inputs: nothing may
escape as a traceback.  Usage: fuzz_readers.py SRCDIR [ROUNDS]; run in a
scratch directory (it writes a sweep directory there); prints one line per
failure and exits 1 if any.

Every reader of the files a sweep reads back, which a broken run, another
user or a worker may have written: the summaries (runs/NAME.json), the
stored sweep (sweep.json), the grid (grid.jsonl, grid.idx), GNU parallel's
job log, the running markers, and a table given to scripts/chart.  The
inputs: nesting 100,000 deep, numbers of 5,000 digits, NaN and Infinity,
every field of the wrong type, bytes that are not UTF-8, NUL bytes, a file
over the read limit, random bytes and random mutations of a good file
(seeded: the same inputs every run).  In this process the readers must
give a "bad" row or a Usage/Failure (one line); as commands, an exit status
of 0 to 3 and every line of standard error "PROG: ...", no traceback.
"""
import json
import os
import random
import subprocess
import sys

SRC = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 150
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SRC, "scripts"))
from boidsweep import chart, common, parallel, results, sweepdir, tables  # noqa: E402

fails = []
rng = random.Random(41)
METRICS = common.METRICS


def fail(what):
    fails.append(what)
    print(what, flush=True)


# ------------------------------------------------------------ a sweep

SPEC = {"layout": 2, "bin": "/nonexistent/boids", "boids_version": "test", "grid": [["seed", ["1", "2", "3"]]],
        "replicates": None, "fixed": [["no-render", None]], "base_config": "", "fixed_config": ["no-render = yes"],
        "render": False, "ext": "mp4", "with_traj": False, "with_metrics": False, "chart_x": "seed",
        "chart_y": "polarization", "chart_stat": "mean", "chart_logx": False, "command": "fuzz"}
OUT = "fz"
POINTS = [{"i": i, "name": f"seed={i + 1}", "values": [["seed", str(i + 1)]], "hash": "sha256:0"} for i in range(3)]


def good_summary(i):
    return {"status": "complete", "frames": 5, "frames_asked": 5, "host": "h", "wall_time_s": 0.1,
            "options_hash": "sha256:0", "version": "test", "seed": i + 1,
            "metrics": {m: {"final": 0.5, "mean": 0.25} for m in METRICS},
            "parameters": {"boids": 20, "size": "640x360", "seed": i + 1}}


def make_sweep():
    os.makedirs(os.path.join(OUT, "runs"), exist_ok=True)
    os.makedirs(os.path.join(OUT, "cfg"), exist_ok=True)
    os.chmod(OUT, 0o755)
    open(os.path.join(OUT, ".boids-sweep"), "w").write("boids sweep directory, layout 2\n")
    write("sweep.json", json.dumps(SPEC).encode())
    lines = [(json.dumps(p) + "\n").encode() for p in POINTS]
    write("grid.jsonl", b"".join(lines))
    off, idx = 0, b""
    for line in lines:
        idx += b"%015d\n" % off
        off += len(line)
    write("grid.idx", idx)
    for i in range(3):
        write(f"runs/seed={i + 1}.json", json.dumps(good_summary(i)).encode())


def write(rel, data):
    with open(os.path.join(OUT, rel), "wb") as f:
        f.write(data)


# ------------------------------------------------------------ inputs

def deep(n):
    return [b"[" * n, b"{\"a\":" * n, b"[" * n + b"]" * n, b"{\"metrics\": " + b"[" * n + b"]" * n + b"}"]


def wrong_types():
    """A good summary with one field replaced by every kind of JSON value."""
    kinds = [None, True, 0, -1, 1.5, "x", "", [], {}, [1, 2], {"a": 1}, "\ud800", "=cmd()", 1e308, -1e308]
    out = []
    for key in ("status", "frames", "frames_asked", "host", "wall_time_s", "options_hash", "version", "seed",
                "metrics", "parameters", "signal"):
        for v in kinds:
            s = good_summary(0)
            s[key] = v
            out.append(json.dumps(s).encode("utf-8", "surrogatepass"))
    for m in METRICS[:2]:
        for v in kinds:
            s = good_summary(0)
            s["metrics"][m] = v
            out.append(json.dumps(s).encode("utf-8", "surrogatepass"))
            s["metrics"][m] = {"final": v, "mean": v}
            out.append(json.dumps(s).encode("utf-8", "surrogatepass"))
    for v in kinds:
        s = good_summary(0)
        s["parameters"]["size"] = v
        out.append(json.dumps(s).encode("utf-8", "surrogatepass"))
    return out


def numbers():
    g = json.dumps(good_summary(0))
    return [g.replace("0.5", "1" * 5000).encode(), g.replace("0.5", "NaN").encode(),
            g.replace("0.5", "Infinity").encode(), g.replace("0.25", "-Infinity").encode(),
            g.replace("0.5", "1e999").encode(), g.replace("0.5", "1e308").replace("0.25", "1.7e308").encode(),
            g.replace('"seed": 1', '"seed": ' + "9" * 4000).encode()]


def encodings():
    g = json.dumps(good_summary(0)).encode()
    return [b"\xef\xbb\xbf" + g, g.decode().encode("utf-16"), g.replace(b'"h"', b'"\xff\xfe\x00"'),
            g.replace(b'"h"', b'"\\ud800\\udfff\\u0000"'), b"\x00" * 100, g[:len(g) // 2], g + b"garbage",
            g.replace(b'"parameters": {', b'"parameters": {' + b"".join(b'"k%d": %d, ' % (k, k) for k in range(5000)))]


def mutations(n):
    g = bytearray(json.dumps(good_summary(0)).encode())
    out = []
    for _ in range(n):
        m = bytearray(g)
        for _ in range(rng.randint(1, 8)):
            k = rng.randrange(len(m))
            op = rng.random()
            if op < 0.4:
                m[k] = rng.randrange(256)
            elif op < 0.7:
                del m[k:k + rng.randint(1, 20)]
            else:
                m[k:k] = bytes(rng.choice(b'[]{}",:0123456789eE.-\\nutfa\x00\xff') for _ in range(rng.randint(1, 30)))
        out.append(bytes(m))
    out += [bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))) for _ in range(n // 3)]
    return out


# ------------------------------------------------------------ checks

def check_summary(data, why):
    write("runs/seed=1.json", data)
    try:
        states = [results.run_state(OUT, p, "here") for p in pts()]
        cols, rows, scols, srows = tables.table_rows(SPEC, pts(), states)
        csv_text = tables.csv_bytes(cols, rows).decode("utf-8")            # strict: UTF-8 always
        for line in tables.jsonl_bytes(cols, rows).splitlines():
            json.loads(line)
        tables.csv_bytes(scols, srows)
        s = states[0][1]
        results.field_width(s)
        results.metric(s, "polarization")
        results.describe(*states[0])
    except Exception as e:
        fail(f"summary ({why}): {type(e).__name__}: {str(e)[:120]}")
        return
    try:
        parsed = json.loads(data.decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError):
        parsed = None
    if not isinstance(parsed, dict) and states[0][0] != "bad":
        fail(f"summary ({why}): not a JSON object, yet status {states[0][0]}")
    if "\n" in rows[0]["status"] or not csv_text:
        fail(f"summary ({why}): status {rows[0]['status']!r}")


def pts():
    return [sweepdir.check_point(json.loads(json.dumps(p)), p["i"]) for p in POINTS]


def expect_clean(what, fn, *args):
    """fn(*args) returns, or raises Usage or Failure: never anything else."""
    try:
        fn(*args)
    except (common.Usage, common.Failure) as e:
        if "\n" in str(e):
            fail(f"{what}: a message of two lines: {str(e)[:120]!r}")
    except Exception as e:
        fail(f"{what}: {type(e).__name__}: {str(e)[:120]}")


def fuzz_spec(inputs):
    for k, data in enumerate(inputs):
        write("sweep.json", data)
        expect_clean(f"sweep.json #{k}", sweepdir.load_spec, OUT)
    for key in SPEC:
        for v in (None, 1, "x", [], {}, [[1, 2]], [["seed", []]], [["seed", [1]]], True):
            s = dict(SPEC)
            s[key] = v
            write("sweep.json", json.dumps(s).encode())
            expect_clean(f"sweep.json with {key} = {v!r}", sweepdir.load_spec, OUT)
    write("sweep.json", json.dumps(SPEC).encode())


def fuzz_grid(inputs):
    good = open(os.path.join(OUT, "grid.jsonl"), "rb").read()
    idx = open(os.path.join(OUT, "grid.idx"), "rb").read()
    for k, data in enumerate(inputs):
        write("grid.jsonl", data)
        expect_clean(f"grid.jsonl #{k}", sweepdir.read_grid, OUT)
        expect_clean(f"grid.jsonl #{k} (point 0)", sweepdir.read_point, OUT, 0)
    write("grid.jsonl", good)
    for data in (b"", b"x" * 16, b"%015d\n" % (1 << 40), b"-00000000000001\n", b"\xff" * 16, idx[:7]):
        write("grid.idx", data)
        expect_clean(f"grid.idx {data[:16]!r}", sweepdir.read_point, OUT, 0)
    write("grid.idx", idx)
    for v in (None, True, 1.0, "0", -1, [0]):
        write("grid.jsonl", (json.dumps({**POINTS[0], "i": v}) + "\n").encode())
        expect_clean(f"grid.jsonl with i = {v!r}", sweepdir.read_grid, OUT)
    write("grid.jsonl", good)


def fuzz_joblog_and_markers(inputs):
    lines = [b"1\t:\t0\t0\t0\t0\t\xc2\xb2\t0\tcfg/1.cfg", b"1\t:\t0\t0\t0\t0\t-\t0\tcfg/1.cfg",
             b"1\t:\t0\t0\t0\t0\t99999999999999999999\t0\tcfg/99999999999.cfg", b"\t" * 100000]
    for k, data in enumerate(inputs + lines):
        expect_clean(f"joblog #{k}", parallel.joblog_exits, data)
        write("runs/seed=2.running", data[:5000])
        expect_clean(f"marker #{k}", results.run_state, OUT, pts()[1], "here")
    os.unlink(os.path.join(OUT, "runs", "seed=2.running"))


def csv_inputs():
    good = "run,seed,status,polarization_mean\nr,1,complete,0.5\nr,2,complete,0.25\n"
    return [good.replace("0.5", "nan"), good.replace("0.5", "1e999"), good.replace("1,", "inf,"),
            good + "r,3\n", good + "r,3,complete,0.1,extra,more\n", good.replace("seed", ""),
            good + "\x00\n", good + "r,4,complete," + "9" * 200000 + "\n", "\xff\xfe" + good,
            good + '"unclosed,1,complete,0.2\n', "", "run\n", good.replace("status", "polarization_mean"),
            ",,,\n,,,\n"] + ["".join(rng.choice('abc,"\n0.51\x00\t') for _ in range(rng.randint(0, 200)))
                             for _ in range(12)]


def fuzz_chart():
    chart.shutil.which = lambda name: None    # read and lay out every table, draw none (gnuplot's time)
    for k, text in enumerate(csv_inputs()):
        with open("t.csv", "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        for args in (["--x", "seed", "--mean-over", "seed"], ["--mean-over", "seed"], []):
            expect_clean(f"chart table #{k} {args}", chart.main, args + ["-y", "-o", "c.svg", "t.csv"])


# ------------------------------------------------------------ commands

def command(args, progs, ok=(0, 1, 2, 3)):
    p = subprocess.run([sys.executable, os.path.join(SRC, "scripts", args[0])] + args[1:], capture_output=True,
                       stdin=subprocess.DEVNULL)
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode not in ok or "Traceback" in err or any(
            line and not line.startswith(tuple(f"{x}: " for x in progs)) for line in err.splitlines()):
        fail(f"{' '.join(args)}: exit {p.returncode}: {err[-400:]}")


def commands():
    write("runs/seed=1.json", b"[" * 100000)
    write("runs/seed=2.json", json.dumps({**good_summary(1), "metrics": [1, 2]}).encode())
    command(["sweep-table", OUT], ["sweep-table"], (1,))
    command(["sweep", "--collect", "--no-chart", "--progress", "never", "--out", OUT], ["sweep"], (1,))
    command(["sweep-report", "-o", "r.html", OUT], ["sweep-report"])
    command(["contact-sheet", OUT], ["contact-sheet"], (1,))
    write("grid.idx", b"x" * 40)
    command(["sweep", "--task", "1", "--out", OUT], ["sweep"], (1, 2))
    write("sweep.json", b"{\"layout\": " * 50000)
    command(["sweep", "--collect", "--out", OUT], ["sweep"], (2,))
    with open("deep.csv", "w") as f:
        f.write("run,seed,status,polarization_mean\n" + "r,1,complete,0.5\x00\n")
    command(["chart", "-o", "d.png", "deep.csv"], ["chart"], (1, 2))


def main():
    make_sweep()
    summaries = deep(100000) + deep(995) + wrong_types() + numbers() + encodings() + mutations(ROUNDS)
    for k, data in enumerate(summaries):
        check_summary(data, f"input #{k}: {data[:40]!r}")
    big = json.dumps(good_summary(0)).encode()
    check_summary(big[:-1] + b" " * (17 << 20) + b"}", "17 MB, over the read limit")
    write("runs/seed=1.json", json.dumps(good_summary(0)).encode())
    fuzz_spec(deep(100000) + encodings() + mutations(ROUNDS // 3))
    fuzz_grid(deep(100000) + encodings() + mutations(ROUNDS // 3))
    fuzz_joblog_and_markers(mutations(ROUNDS // 3))
    fuzz_chart()
    commands()
    print(f"fuzz_readers: {len(summaries) + 1} summaries and the other inputs read, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
