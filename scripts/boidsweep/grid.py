"""The sweep's definition (its "spec", stored as sweep.json) and its points.

build_spec() turns the command line into the spec (design.py reads the
parts beyond a grid); points() yields every point in order: each sampled
point (if any) with every combination of the grids (the first grid
slowest), then the points each round of --replicates auto added; a point
is a list of (option, value).  run_config() is a point's config file.  A
run's name joins its values (point_name()); check_names() refuses two
points with one name.
"""
import hashlib
import json
import os
import re

from .boids import config_value
from . import design
from .common import METRICS, NO_SWEEP, Usage, did_you_mean, shown
from .files import read_file
from .options import split_boids_options

LAYOUT = 2                         # version of the directory layout
VIDEO_EXTS = ("mp4", "mov", "mkv", "webm", "gif", "y4m")   # the files boids -o writes


def sanitize(label):
    s = re.sub(r"[^A-Za-z0-9._,=+-]", "_", label)
    if len(s) > 200:
        s = s[:180] + "-" + hashlib.sha256(label.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return s


def parse_grid(o, opts, fixed):
    """--grid NAME=V1,V2,... (and --replicates K's seeds) -> [[name, [values]]]."""
    grid, seen = [], set()
    for g in o["grid"]:
        name, eq, lst = g.partition("=")
        name = name[2:] if name.startswith("--") else name
        if not eq:
            raise Usage(f"--grid '{shown(g)}': expected NAME=V1,V2,...")
        od = opts.get(name)
        if not re.fullmatch(r"[a-z][a-z0-9-]*", name) or not od:
            raise Usage(f"--grid '{shown(g)}': '{shown(name)}' is not a long option of boids"
                        + did_you_mean(name, [k for k, v in opts.items() if v["takes_value"]
                                              and v["type"] != "action" and k not in NO_SWEEP]))
        if not od["takes_value"] or od["type"] == "action" or name in NO_SWEEP:
            raise Usage(f"--grid '{shown(g)}': --{name} cannot be swept")
        if name in seen:
            raise Usage(f"--grid '{shown(g)}': {name} is already swept")
        values = lst.split(",")
        if "" in values:
            raise Usage(f"--grid '{shown(g)}': empty value")
        if len(set(values)) != len(values):
            raise Usage(f"--grid '{shown(g)}': a value is given twice")
        for v in values:
            if "\n" in v or "\0" in v:
                raise Usage(f"--grid '{name}=...': a value holds a newline")
        seen.add(name)
        grid.append([name, values])
    return grid, seen


def fixed_config(fixed, opts):
    """(the --config files' text, the fixed options as config lines)."""
    base = b""
    for n, v in fixed:
        if n == "config":
            data = read_file(v) if os.path.exists(v) else None
            if data is None:
                raise Usage(f"--config: cannot read '{shown(v)}'")
            base += data + (b"" if data.endswith(b"\n") else b"\n")
    lines = []
    cleared = False
    for n, v in fixed:
        if n == "config":
            continue
        if opts[n]["type"] == "circles" and not cleared:
            lines.append("obstacle = ")  # the command line's list replaces a file's
            cleared = True
        lines.append(f"{n} = " + ("yes" if v is None else config_value(v)))
    return base.decode("utf-8", "surrogateescape"), lines


def study(o, opts, grid, seen, fixed, stat):
    """The parts of the spec beyond the grid (design.py): ranges, sample,
    goal, sensitivity, replicates (a fixed count or auto)."""
    ranges = design.parse_ranges(o, opts, seen)
    sens = design.parse_metric(o["sensitivity"], "--sensitivity", stat) if o["sensitivity"] else None
    sample = design.parse_sample(o, ranges, sens)
    goal = design.parse_goal(o["goal"], stat) if o["goal"] else None
    reps, auto = design.parse_replicates(o["replicates"])
    if reps is not None:
        if "seed" in seen or any(n == "seed" for n, _ in fixed):
            raise Usage("--replicates sets the seeds 1..K: do not give --seed or a seed grid too")
        grid.append(["seed", [str(k) for k in range(1, reps + 1)]])
    if auto and not goal:
        raise Usage("--replicates auto adds seeds until the --goal is answered: give --goal METRIC:max|min")
    if auto and sens:
        raise Usage("--replicates auto and --sensitivity do not go together (give --replicates K)")
    if auto and sample:
        raise Usage("--replicates auto adds seeds to the points of a grid, not of a --sample (give --replicates K)")
    if sens and any(g[0] != "seed" for g in grid):
        raise Usage("--sensitivity samples its --range parameters: give no --grid (--replicates K is fine)")
    if not grid and not ranges:
        raise Usage("no --grid given (see --help)")
    return {"ranges": ranges, "sample": sample, "goal": goal, "sensitivity": sens, "replicates": reps,
            "auto": auto, "rounds": []}


def build_spec(o, b, version, opts):
    """The sweep's definition from the command line; Usage on any problem."""
    fixed = split_boids_options(o["boids"], opts)
    grid, seen = parse_grid(o, opts, fixed)
    chart_stat = o["chart_stat"] or "mean"
    if chart_stat not in ("mean", "final"):
        raise Usage(f"--chart-stat: '{shown(chart_stat)}' is not mean or final" + did_you_mean(chart_stat, ("mean", "final")))
    more = study(o, opts, grid, seen, fixed, chart_stat)
    render = not any(n == "no-render" for n, _ in fixed)
    ext = o["ext"] or "mp4"
    if not re.fullmatch(r"[a-z0-9]{1,8}", ext) or (render and ext not in VIDEO_EXTS):
        raise Usage(f"--ext: '{shown(ext)}' is not a kind of video boids writes ({', '.join(VIDEO_EXTS)})"
                    + did_you_mean(ext, VIDEO_EXTS))
    base, lines = fixed_config(fixed, opts)
    names = [r[0] for r in more["ranges"]] + [g[0] for g in grid]
    chart_x = o["chart_x"] or names[0]
    if chart_x not in names:
        raise Usage(f"--chart-x: '{shown(chart_x)}' is not swept" + did_you_mean(chart_x, names))
    chart_y = o["chart_y"] or "polarization"
    if chart_y not in METRICS:
        raise Usage(f"--chart-y: unknown metric '{shown(chart_y)}'"
                    + (did_you_mean(chart_y, METRICS) or f" ({', '.join(METRICS)})"))
    return {"layout": LAYOUT, "bin": b, "boids_version": version, "grid": grid,
            "fixed": [[n, v] for n, v in fixed], "base_config": base, "fixed_config": lines,
            "render": render, "ext": ext, "with_traj": o["with_traj"],
            "with_metrics": o["with_metrics"], "chart_x": chart_x, "chart_y": chart_y,
            "chart_stat": chart_stat, "chart_logx": bool(o.get("chart_logx")), **more}


def same_definition(a, b):
    """The same sweep: what makes its points and runs (not its chart or goal)."""
    keys = ("grid", "replicates", "fixed", "base_config", "fixed_config", "render", "ext",
            "with_traj", "with_metrics", "ranges", "sample", "sensitivity", "auto")
    return all(a.get(k) == b.get(k) for k in keys)


def swept_names(spec):
    """The table's parameter columns: sample (a sampled design), the ranges, the grids."""
    return (["sample"] if spec.get("sample") else []) + [r[0] for r in spec.get("ranges") or []] + \
        [g[0] for g in spec["grid"]]


def count_points(spec):
    """How many points: the sample's (or 1) times the grid's, and the rounds'."""
    n = spec["sample"]["points"] if spec.get("sample") else 1
    for _, vs in spec["grid"]:
        n *= len(vs)
    return n + sum(len(r["points"]) * len(r["seeds"]) for r in spec.get("rounds") or [])


def point_name(values, sample=None):
    """A run's name: its values joined, after sample=J for a sampled point."""
    label = ",".join(f"{k}={v}" for k, v in values)
    return sanitize(label if sample is None else f"sample={sample}," + label)


def points(spec, rows=None):
    """Every point in order: (values [(name, value)], sample index or None).
    rows: the sampled design (design.design_rows() or DIR/design.csv)."""
    names = [r[0] for r in spec.get("ranges") or []]
    for j, row in enumerate(rows if spec.get("sample") else [None]):
        head = list(zip(names, row)) if row is not None else []
        idx = [0] * len(spec["grid"])
        for _ in range(count_product(spec)):
            yield head + [(g[0], g[1][k]) for g, k in zip(spec["grid"], idx)], (j if row is not None else None)
            for d in range(len(idx) - 1, -1, -1):
                idx[d] += 1
                if idx[d] < len(spec["grid"][d][1]):
                    break
                idx[d] = 0
    for r in spec.get("rounds") or []:
        for values in r["points"]:
            for seed in r["seeds"]:
                yield [tuple(kv) for kv in values] + [("seed", seed)], None


def count_product(spec):
    n = 1
    for _, vs in spec["grid"]:
        n *= len(vs)
    return n


def run_config(spec, name, values):
    """The config file of one run: options, then outputs (all relative to DIR)."""
    lines = [f"# boids sweep run {name}; written by scripts/sweep"] + list(spec["fixed_config"])
    lines += [f"{k} = {config_value(v)}" for k, v in values]
    lines += [f"summary = runs/{name}.json", "overwrite = yes", "progress = never"]
    if spec["render"]:
        lines.append(f"output = runs/{name}.{spec['ext']}")
    if spec["with_traj"]:
        lines.append(f"trajectory = runs/{name}.csv")
    if spec["with_metrics"]:
        lines.append(f"metrics = runs/{name}.metrics.csv")
    return spec["base_config"].encode("utf-8", "surrogateescape") + \
        ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def point_settings(spec, name, values):
    """One point's settings beyond the fixed ones, as run_config() writes them: [(key, value)]."""
    kv = list(values) + [("summary", f"runs/{name}.json"), ("overwrite", "yes"), ("progress", "never")]
    if spec["render"]:
        kv.append(("output", f"runs/{name}.{spec['ext']}"))
    if spec["with_traj"]:
        kv.append(("trajectory", f"runs/{name}.csv"))
    if spec["with_metrics"]:
        kv.append(("metrics", f"runs/{name}.metrics.csv"))
    return kv


def json_line(kv):
    """A JSON object with keys in order (a key may repeat), any bytes of a value kept."""
    body = ", ".join(json.dumps(k) + ": " + json.dumps(v, ensure_ascii=False) for k, v in kv)
    return ("{" + body + "}\n").encode("utf-8", "surrogateescape")


def check_names(spec):
    """
    Two points must not share a run name.  A name joins each grid's sanitized
    'key=value', so two names can only be equal where one grid has two values
    with the same sanitized form: checked per grid, not per point (names longer
    than sanitize() keeps end in a hash of the whole label, so those are
    compared as whole names).
    """
    firsts = [(n, vs[0]) for n, vs in spec["grid"]]
    for j, (n, vs) in enumerate(spec["grid"]):
        seen = {}
        for v in vs:
            s = sanitize(f"{n}={v}")
            if s in seen:
                a = list(firsts)
                a[j] = (n, seen[s])
                b = list(firsts)
                b[j] = (n, v)
                na = sanitize(",".join(f"{k}={x}" for k, x in a))
                if na == sanitize(",".join(f"{k}={x}" for k, x in b)):
                    raise Usage(f"two grid points give the run name '{na}'; change the values")
            seen[s] = v
