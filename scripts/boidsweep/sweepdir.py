"""The sweep directory: made by the sweep with its marker (.boids-sweep),
holding sweep.json (the spec), grid.jsonl (every point, a JSON line) and
grid.idx (each line's byte offset, IDX_WIDTH bytes a point, so that point I
is read with two reads whatever the grid's size).
"""
import json
import os
import re

from .common import Failure, Usage, json_value, shown
from .files import check_dir, make_subdir, read_file
from .grid import LAYOUT

MARKER = ".boids-sweep"
IDX_WIDTH = 16                     # bytes per line of grid.idx


def create_dir(out):
    """
    Creates the sweep directory (or adopts an empty one of ours) with the
    marker.  Returns True when it made the directory, False when it adopted one.
    """
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise Usage(f"--out: the parent directory of '{shown(out)}' does not exist")
    made = True
    try:
        os.mkdir(out, 0o755)
    except FileExistsError:
        made = False
        check_dir(out)
        if os.path.lexists(os.path.join(out, MARKER)):
            raise Usage(f"'{shown(out)}' holds a sweep already, whose runs are never overwritten: "
                        "add --resume to finish it, or choose another --out")
        if os.listdir(out):
            raise Usage(f"'{shown(out)}' is not empty and holds no sweep: choose another --out")
    except OSError as e:
        raise Failure(f"cannot create '{shown(out)}': {e.strerror}")
    check_dir(out)
    fd = os.open(os.path.join(out, MARKER), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(f"boids sweep directory, layout {LAYOUT}; written by scripts/sweep\n")
    for sub in ("runs", "cfg"):
        make_subdir(os.path.join(out, sub))
    return made


def open_dir(out):
    check_dir(out)
    m = read_file(os.path.join(out, MARKER))
    if m is None:
        raise Usage(f"'{shown(out)}' holds no sweep (no {MARKER}: not made by scripts/sweep)")
    for sub in ("runs", "cfg"):
        make_subdir(os.path.join(out, sub))


def is_list_of(v, pred):
    return isinstance(v, list) and all(pred(x) for x in v)


def is_str(v):
    return isinstance(v, str)


def spec_is_sound(spec):
    """Every field the sweep reads from sweep.json is there, of its type."""
    name = lambda n: is_str(n) and re.fullmatch(r"[a-z][a-z0-9-]*", n)
    flag = lambda k: isinstance(spec.get(k, False), bool)
    return isinstance(spec, dict) and spec.get("layout") == LAYOUT \
        and is_list_of(spec.get("grid"), lambda g: isinstance(g, list) and len(g) == 2 and name(g[0])
                       and is_list_of(g[1], is_str) and g[1]) \
        and is_str(spec.get("bin")) and is_list_of(spec.get("fixed_config"), is_str) \
        and is_list_of(spec.get("fixed", []), lambda f: isinstance(f, list) and len(f) == 2 and name(f[0])
                       and (f[1] is None or is_str(f[1]))) \
        and is_str(spec.get("base_config")) and is_str(spec.get("ext")) \
        and re.fullmatch(r"[a-z0-9]{1,8}", spec["ext"]) \
        and all(flag(k) for k in ("render", "with_traj", "with_metrics", "chart_logx")) \
        and (spec.get("replicates") is None or type(spec["replicates"]) is int and spec["replicates"] >= 1) \
        and all(spec.get(k) is None or is_str(spec[k]) for k in ("chart_x", "chart_y", "chart_stat", "command",
                                                               "boids_version", "sensitivity")) \
        and study_is_sound(spec)


def study_is_sound(spec):
    """The design beyond a grid (design.py), when there is one."""
    count = lambda v: type(v) is int and v >= 1
    pair = lambda kv: isinstance(kv, list) and len(kv) == 2 and is_str(kv[0]) and is_str(kv[1])
    sample, goal, auto = spec.get("sample"), spec.get("goal"), spec.get("auto")
    return is_list_of(spec.get("ranges", []), lambda r: isinstance(r, list) and len(r) == 5
                      and all(is_str(x) for x in r) and r[3] in ("log", "linear")) \
        and (sample is None or isinstance(sample, dict) and sample.get("method") in ("lhs", "sobol", "saltelli")
             and all(count(sample.get(k)) for k in ("n", "points")) and type(sample.get("seed")) is int) \
        and (goal is None or isinstance(goal, dict) and is_str(goal.get("column"))
             and goal.get("direction") in ("max", "min")) \
        and (auto is None or isinstance(auto, dict) and count(auto.get("max"))
             and is_list_of(auto.get("looks"), count) and auto["looks"]) \
        and is_list_of(spec.get("rounds", []), lambda r: isinstance(r, dict) and is_list_of(r.get("seeds"), is_str)
                       and is_list_of(r.get("points"), lambda p: is_list_of(p, pair)))


def load_spec(out):
    """sweep.json, every field checked; Usage when it is not a sweep's."""
    data = read_file(os.path.join(out, "sweep.json"))
    try:
        spec = json_value(data) if data else None
    except ValueError:
        spec = None
    if not spec_is_sound(spec):
        raise Usage(f"'{shown(out)}/sweep.json' is missing or not a sweep definition")
    return spec


def dump_json(obj):
    return (json.dumps(obj, indent=1, ensure_ascii=True) + "\n").encode("ascii")


def check_point(p, i):
    ok = isinstance(p, dict) and type(p.get("i")) is int and p["i"] == i and isinstance(p.get("name"), str) \
        and re.fullmatch(r"[A-Za-z0-9._,=+-]{1,200}", p["name"]) and p["name"] not in (".", "..") \
        and isinstance(p.get("values"), list) and isinstance(p.get("hash"), str) \
        and all(isinstance(kv, list) and len(kv) == 2 and all(isinstance(x, str) for x in kv)
                for kv in p["values"])
    if not ok:
        raise Usage(f"grid.jsonl: line {i + 1} is not a grid point")
    p["values"] = [tuple(kv) for kv in p["values"]]
    return p


def read_point(out, i):
    """Point i with two reads, whatever the grid's size."""
    try:
        fd = os.open(os.path.join(out, "grid.idx"), os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            f.seek(i * IDX_WIDTH)
            rec = f.read(IDX_WIDTH)
        fd = os.open(os.path.join(out, "grid.jsonl"), os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            if not re.fullmatch(rb"[0-9]{%d}\n" % (IDX_WIDTH - 1), rec):
                return None
            f.seek(int(rec, 10))
            line = f.readline(1 << 20)
    except OSError as e:
        raise Failure(f"cannot read the grid in '{shown(out)}': {e.strerror}")
    try:
        return check_point(json_value(line.decode("utf-8", "surrogatepass")), i)
    except ValueError:
        raise Usage(f"grid.jsonl: line {i + 1} is not a grid point")


def read_grid(out):
    data = read_file(os.path.join(out, "grid.jsonl"))
    if data is None:
        raise Usage(f"'{shown(out)}' has no grid.jsonl")
    pts = []
    for i, line in enumerate(data.splitlines()):
        try:
            pts.append(check_point(json_value(line.decode("utf-8", "surrogatepass")), i))
        except ValueError:
            raise Usage(f"grid.jsonl: line {i + 1} is not a grid point")
    return pts
