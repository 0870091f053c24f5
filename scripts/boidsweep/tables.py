"""The tables of a sweep, rebuilt from its grid and summaries:

  table.csv, table.jsonl   one row per grid point, in grid order: run, the
                           swept parameters, status, host, seconds, frames,
                           frames_asked, <metric>_final and <metric>_mean,
                           version, seed, every other parameter
  stats.csv, stats.jsonl   with a swept seed: per point of the other
                           parameters, n and the mean, sd and 95% interval of
                           every metric over the complete runs

In the CSV files a text cell starting with = + - @ (or a tab or carriage
return) gets a leading ' so that a spreadsheet shows it instead of
evaluating it; numbers stay numbers (-0.5 is not a formula).  Undecodable
bytes appear as \\xNN.
"""
import csv
import io
import json
import math
import os
import re

from .common import METRICS
from .grid import swept_names
from .stats import bounds_of, describe, interval_method

NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def text(v):
    """Valid UTF-8 text: undecodable bytes (surrogate escapes) as \\xNN."""
    if not isinstance(v, str):
        return v
    try:
        b = v.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        b = v.encode("utf-8", "surrogatepass")
    return b.decode("utf-8", "backslashreplace")


def csv_cell(v):
    """A value as a CSV cell a spreadsheet shows as it is."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return repr(v) if math.isfinite(v) else ""
    if not isinstance(v, str):
        v = json.dumps(v, sort_keys=True)
    v = text(v)
    if v and v[0] in "=+-@\t\r" and not NUMBER.fullmatch(v):
        return "'" + v
    return v


def csv_bytes(cols, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([csv_cell(r.get(c)) for c in cols])
    return buf.getvalue().encode("utf-8")


def jsonl_bytes(cols, rows):
    def clean(v):
        if isinstance(v, float) and not math.isfinite(v):
            return None
        return text(v) if isinstance(v, str) else v
    return b"".join((json.dumps({c: clean(r.get(c)) for c in cols if c in r}, ensure_ascii=False)
                     + "\n").encode("utf-8") for r in rows)


def status_text(state, s):
    if state == "interrupted":
        sig = s.get("signal") if s else None
        return f"interrupted by signal {sig}" if isinstance(sig, int) else "interrupted"
    return state


def point_row(p, state, s, params):
    """One point's row of table.csv; params (an ordered dict) gains the
    names of the summary's parameters."""
    row = {"run": p["name"]}
    if p.get("sample") is not None:
        row["sample"] = p["sample"]
    row.update({k: v for k, v in p["values"]})
    row["status"] = status_text(state, s)
    s = s if isinstance(s, dict) else {}
    host = s.get("host")
    row["host"] = host if isinstance(host, str) else None
    for k, col in (("wall_time_s", "seconds"), ("frames", "frames"), ("frames_asked", "frames_asked")):
        v = s.get(k)
        row[col] = v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
    ms = s.get("metrics") if isinstance(s.get("metrics"), dict) else {}
    for m in METRICS:
        v = ms.get(m) if isinstance(ms.get(m), dict) else {}
        for st in ("final", "mean"):
            x = v.get(st)
            row[f"{m}_{st}"] = x if isinstance(x, (int, float)) and not isinstance(x, bool) else None
    for k in ("version", "seed"):
        if k not in row and isinstance(s.get(k), (str, int)) and not isinstance(s.get(k), bool):
            row[k] = s[k]
    ps = s.get("parameters") if isinstance(s.get("parameters"), dict) else {}
    for k, v in ps.items():
        if not isinstance(k, str) or k in row:
            continue
        params[k] = None
        row[k] = v if isinstance(v, (str, int, float, bool)) or v is None else json.dumps(v)
    return row


def table_rows(spec, pts, states):
    """(cols, rows, stats cols, stats rows): the tables as lists of dicts.
    A summary that cannot be made a row (a value nested too deeply, a
    number too long) gives a row of status bad."""
    swept = swept_names(spec)
    rows, params = [], {}
    for p, (state, s) in zip(pts, states):
        try:
            rows.append(point_row(p, state, s, params))
        except (ValueError, RecursionError, OverflowError, MemoryError):
            rows.append(point_row(p, "bad", None, params))
    cols = ["run"] + swept + ["status", "host", "seconds", "frames", "frames_asked"]
    cols += [f"{m}_{st}" for m in METRICS for st in ("final", "mean")]
    cols += ["version", "seed"] if "seed" not in swept else ["version"]
    cols += [text(k) for k in params if k not in cols]
    for r in rows:
        for k in list(r):
            if text(k) != k:
                r[text(k)] = r.pop(k)
    scols, srows = over_seeds(swept, rows) if "seed" in swept else ([], [])
    return cols, rows, scols, srows


STATS = ("mean", "sd", "ci95_lo", "ci95_hi")


def over_seeds(swept, rows):
    """stats.csv: per point of the other parameters, n (complete runs), runs,
    and each metric's mean, sd and 95% interval (kept inside the metric's
    range, its method named) over the seeds."""
    by = [k for k in swept if k != "seed"]
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r.get(k) for k in by), []).append(r)
    srows = []
    for key, rs in groups.items():
        ok = [r for r in rs if r["status"] == "complete"]
        sr = dict(zip(by, key))
        sr["n"] = len(ok)
        sr["runs"] = len(rs)
        for m in METRICS:
            for st in ("final", "mean"):
                col = f"{m}_{st}"
                d = describe([r[col] for r in ok if r[col] is not None], bounds_of(col))
                for k in STATS:
                    sr[f"{col}_{k}"] = d[k]
                sr[f"{col}_ci95_method"] = interval_method(bounds_of(col), short=True)
        srows.append(sr)
    scols = by + ["n", "runs"] + [f"{m}_{st}_{k}" for m in METRICS for st in ("final", "mean")
                                  for k in STATS + ("ci95_method",)]
    return scols, srows


def write_tables(out, spec, pts, states, write_file):
    """Writes table.csv, table.jsonl and (with a swept seed) stats.csv and
    stats.jsonl; returns table_rows()."""
    cols, rows, scols, srows = t = table_rows(spec, pts, states)
    write_file(os.path.join(out, "table.csv"), csv_bytes(cols, rows))
    write_file(os.path.join(out, "table.jsonl"), jsonl_bytes(cols, rows))
    if scols:
        write_file(os.path.join(out, "stats.csv"), csv_bytes(scols, srows))
        write_file(os.path.join(out, "stats.jsonl"), jsonl_bytes(scols, srows))
    return t
