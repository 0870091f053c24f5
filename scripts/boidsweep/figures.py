"""The report's pictures: a poster frame for every complete run with a
video or a trajectory (DIR/posters/NAME.png), one chart per metric and the
sensitivity indices' bars (gnuplot's SVG, as data: URIs for the page).
"""
import base64
import os
import shutil
import subprocess
import tempfile

from . import chart, sensitivity
from .common import METRICS, Failure, Usage
from .files import make_subdir, write_file
from .grid import run_config
from .results import field_width

CHART_SIZE, CHART_FONT = "1200x560", 16


def posters(d, spec, pts, states):
    """DIR/posters/NAME.png for every complete point with a video or a
    trajectory, made once (again when older than its source); {i: path}."""
    got = {}
    pdir = os.path.join(d, "posters")
    for p, (state, s) in zip(pts, states):
        if state != "complete":
            continue
        video = os.path.join(d, "runs", f"{p['name']}.{spec['ext']}")
        traj = os.path.join(d, "runs", p["name"] + ".csv")
        src = video if spec.get("render") and os.path.isfile(video) and not os.path.islink(video) else \
            traj if spec.get("with_traj") and os.path.isfile(traj) and not os.path.islink(traj) else None
        if src is None:
            continue
        rel = f"posters/{p['name']}.png"
        dest = os.path.join(d, rel)
        try:
            if os.path.getmtime(dest) >= os.path.getmtime(src):
                got[p["i"]] = rel
                continue
        except OSError:
            pass
        make_subdir(pdir)
        work = tempfile.mkdtemp(prefix="boids-poster-")
        try:
            png = os.path.join(work, "poster_0.png")
            if src == video:
                args = ["ffmpeg", "-nostdin", "-v", "error", "-i", "file:" + os.path.abspath(video),
                        "-vf", "scale=320:-2", "-frames:v", "1", "-y", "file:" + png]
            else:
                field_w = field_width(s)
                cfg = os.path.join(work, "run.cfg")
                with open(cfg, "wb") as f:
                    f.write(run_config({**spec, "render": False, "with_traj": False, "with_metrics": False},
                                          p["name"], p["values"]))
                    f.write(b"summary = \nno-render = no\nwarmup = 0\n")
                args = [spec["bin"], "--config", cfg, "--init", os.path.abspath(traj), "--frames", "1",
                        "--start-number", "0", "--scale", repr(320 / field_w), "--progress", "never",
                        "-y", "-o", os.path.join(work, "poster_%d.png")]
            r = subprocess.run(args, capture_output=True, stdin=subprocess.DEVNULL, cwd=work)
            if r.returncode == 0 and os.path.isfile(png):
                with open(png, "rb") as f:
                    write_file(dest, f.read())
                got[p["i"]] = rel
        except OSError:
            pass
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return got


def charts(d, spec):
    """One SVG chart per metric (scripts/chart's code, in this process), as
    data: URIs, drawn to be read at the page's full width (1200 px wide,
    16 px text: over 12 px in a 1400 px window); [(metric, uri, caption)]."""
    if not shutil.which("gnuplot") or not spec.get("chart_x"):
        return []
    out, work = [], tempfile.mkdtemp(prefix="boids-report-")
    try:
        for m in METRICS:
            col = f"{m}_{spec.get('chart_stat') or 'mean'}"
            svg = os.path.join(work, m + ".svg")
            args = chart.sweep_args(spec, col) + ["--size", CHART_SIZE, "--font-size", str(CHART_FONT), "-o", svg,
                                                "--caption-file", svg + ".txt",
                                                os.path.join(os.path.abspath(d), "table.csv")]
            try:
                chart.main(args)
            except (Usage, Failure):
                continue
            if os.path.isfile(svg):
                cap = open(svg + ".txt", encoding="utf-8").read() if os.path.isfile(svg + ".txt") else ""
                out.append((col, svg_uri(svg), cap))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def svg_uri(path):
    with open(path, "rb") as f:
        return "data:image/svg+xml;base64," + base64.b64encode(f.read()).decode()


def sensitivity_chart(result):
    """The Sobol indices' bar chart as a data: URI, or None."""
    work = tempfile.mkdtemp(prefix="boids-report-")
    try:
        svg = os.path.join(work, "s.svg")
        return svg_uri(svg) if sensitivity.bar_chart(result, svg, f"{CHART_SIZE.split('x')[0]}x500", CHART_FONT) \
            else None
    except (Failure, OSError):
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)
