"""report.html: one self-contained page about a sweep (scripts/sweep-report).

The page holds the sweep's command line, grid, boids version and hosts; a
table of every point (parameters, status, metrics) and, with replicate
seeds, of the mean and 95% interval over them, both sortable and filterable
in the browser (DataTables, inlined from Debian's libjs-jquery-datatables and
libjs-jquery) and readable as plain HTML without JavaScript; one chart per
metric (gnuplot's SVG, inlined); a poster frame per point with a picture
(DIR/posters/NAME.png, from its video or trajectory) and the video itself,
playable, referenced relative to DIR; the failed and missing points with the
tail of their logs.  Every value from the grid, a summary or a log is
escaped as text; the page's Content-Security-Policy allows no network
request, no inline handler and only its own scripts (by hash).
"""
import base64
import hashlib
import html
import json
import math
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
import urllib.parse

from . import chart
from .common import METRICS, Failure, Usage
from .files import make_subdir, write_file
from .grid import run_config
from .results import describe, field_width

USAGE = """\
Usage: scripts/sweep-report [-o FILE] SWEEP_DIR
Write SWEEP_DIR/report.html: one self-contained page about a sweep made by
scripts/sweep (which writes it at the end of every sweep and --collect).

  -o, --output FILE  the page to write [SWEEP_DIR/report.html]; never one of its inputs
  -h, --help         show this help and exit

The page holds the sweep's command line, grid, boids version and hosts; a
table of every point (parameters, status, metrics) and, with replicate
seeds, of the mean and 95% interval over them, both sortable and filterable
in the browser (DataTables, inlined from Debian's libjs-jquery-datatables and
libjs-jquery) and readable as plain HTML without JavaScript; one chart per
metric (gnuplot's SVG, inlined); a poster frame per point with a picture
(DIR/posters/NAME.png, from its video or trajectory) and the video itself,
playable, referenced relative to DIR; the failed and missing points with the
tail of their logs.  Every value from the grid, a summary or a log is
escaped as text; the page's Content-Security-Policy allows no network
request, no inline handler and only its own scripts (by hash).
Exit status: 0 written, 1 failure, 2 bad usage.
"""
JS = "/usr/share/javascript"
LIBS = (f"{JS}/jquery/jquery.min.js", f"{JS}/jquery-datatables/jquery.dataTables.min.js")
CSS = f"{JS}/jquery-datatables/css/jquery.dataTables.min.css"
TAIL_LINES, TAIL_POINTS = 20, 500


def h(v):
    """Any value as HTML text (attribute-safe)."""
    if v is None:
        return ""
    if not isinstance(v, str):
        v = json.dumps(v) if not isinstance(v, (int, float)) else repr(v)
    v = v.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return html.escape(v, quote=True)


def url(path, base="."):
    """A path relative to DIR as a URL from the page (base: DIR seen from the
    page's directory): every byte outside [A-Za-z0-9._~/-] %-escaped, so a
    name is never a scheme (javascript:) or a query."""
    return "./" + urllib.parse.quote(os.path.normpath(os.path.join(base, path)), safe="/")


def number(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return v


def cell(v):
    """A table cell: numbers shown to 4 significant digits, sorted by their value."""
    x = number(v)
    if x is not None:
        return f'<td class="num" data-order="{x!r}">{h(f"{x:.4g}")}</td>'
    return f"<td>{h(v)}</td>"


def sha(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def library_css():
    """DataTables' stylesheet with its sort arrows as data: URIs (no file fetched)."""
    css = open(CSS, encoding="utf-8").read()

    def inline(m):
        f = os.path.join(os.path.dirname(CSS), m.group(1))
        try:
            data = open(f, "rb").read()
        except OSError:
            return "none"
        return 'url("data:image/png;base64,' + base64.b64encode(data).decode() + '")'
    return re.sub(r'url\("?([^")]+\.png)"?\)', inline, css)


PAGE_CSS = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
dl.about { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dl.about dt { font-weight: bold; } dl.about dd { margin: 0; }
code, pre { font-family: monospace; white-space: pre-wrap; word-break: break-all; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
.charts figure { margin: 0; width: 440px; } .charts img { width: 100%; border: 1px solid #ddd; }
.wide { overflow-x: auto; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.pic img, td.pic video { width: 128px; display: block; }
tr.complete td.status { color: #15661f; } tr.failed td.status, tr.missing td.status { color: #a11; }
tr.running td.status { color: #a60; }
pre.log { background: #f4f4f4; padding: .5em; max-height: 20em; overflow: auto; }
"""

PAGE_JS = """
$(function () {
  var opts = { pageLength: 25, lengthMenu: [[10, 25, 100, -1], [10, 25, 100, 'all']], order: [] };
  $('#points').DataTable(opts);
  if ($('#stats').length) { $('#stats').DataTable(opts); }
  document.body.setAttribute('data-ready', '1');
});
"""


def status_kind(status):
    return status if status in ("complete", "running", "missing") else "failed"


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
    data: URIs; [(metric, uri, caption)]."""
    if not shutil.which("gnuplot") or not spec.get("chart_x"):
        return []
    reps = spec.get("replicates") or "seed" in [g[0] for g in spec["grid"]]
    out, work = [], tempfile.mkdtemp(prefix="boids-report-")
    try:
        for m in METRICS:
            col = f"{m}_{spec.get('chart_stat') or 'mean'}"
            svg = os.path.join(work, m + ".svg")
            args = ["--x", spec["chart_x"], "--y", col, "--size", "640x400", "-o", svg, "--caption-file", svg + ".txt"]
            if reps and spec["chart_x"] != "seed":
                args += ["--mean-over", "seed"]
            if spec.get("chart_logx"):
                args += ["--x-scale", "log"]
            args.append(os.path.join(os.path.abspath(d), "table.csv"))
            try:
                chart.main(args)
            except (Usage, Failure):
                continue
            if os.path.isfile(svg):
                data = open(svg, "rb").read()
                cap = open(svg + ".txt", encoding="utf-8").read() if os.path.isfile(svg + ".txt") else ""
                out.append((col, "data:image/svg+xml;base64," + base64.b64encode(data).decode(), cap))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def log_tail(d, p):
    path = os.path.join(d, "runs", p["name"] + ".log")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        size = os.fstat(f.fileno()).st_size
        f.seek(max(0, size - 65536))
        data = f.read(65536)
    return "\n".join(data.decode("utf-8", "replace").splitlines()[-TAIL_LINES:])


def table(tid, cols, rows, row_class=None, pics=None):
    out = [f'<div class="wide"><table id="{tid}" class="display compact"><thead><tr>']
    heads = [f"<th>{h(c)}</th>" for c in cols]
    if pics is not None:
        heads.insert(1, "<th>picture</th>")
    out += heads
    out.append("</tr></thead><tbody>")
    for k, r in enumerate(rows):
        cls = f' class="{h(row_class(r))}"' if row_class else ""
        tds = [f'<td class="status">{h(r.get(c))}</td>' if c == "status" else cell(r.get(c)) for c in cols]
        if pics is not None:
            tds.insert(1, f'<td class="pic">{pics.get(k, "")}</td>')
        tds = "".join(tds)
        out.append(f"<tr{cls}>{tds}</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def write_report(d, spec, pts, states, tables, dest=None):
    """Writes the page (through a temporary and a rename); returns its path."""
    cols, rows, scols, srows = tables
    for lib in LIBS + (CSS,):
        if not os.path.isfile(lib):
            raise Failure(f"'{lib}' is missing (apt-get install libjs-jquery-datatables libjs-jquery)")
    dest = dest or os.path.join(d, "report.html")
    base = os.path.relpath(os.path.abspath(d), os.path.dirname(os.path.abspath(dest)))
    poster = posters(d, spec, pts, states)
    pics = {}
    for k, (p, (state, _)) in enumerate(zip(pts, states)):
        video = f"runs/{p['name']}.{spec['ext']}"
        img = poster.get(p["i"])
        if spec.get("render") and state == "complete" and os.path.isfile(os.path.join(d, video)):
            pics[k] = (f'<video controls preload="metadata" src="{h(url(video, base))}"'
                       + (f' poster="{h(url(img, base))}"' if img else "") + "></video>")
        elif img:
            pics[k] = f'<img alt="last frame of {h(p["name"])}" src="{h(url(img, base))}">'
    # the swept parameters, status, host, times, metrics, then every other
    # column whose value is not the same for every point
    core = len(spec["grid"]) + 6 + 2 * len(METRICS)
    show = cols[:core] + [c for c in cols[core:] if any(r.get(c) != rows[0].get(c) for r in rows)]
    hosts = {}
    for r in rows:
        if r.get("host"):
            hosts[r["host"]] = hosts.get(r["host"], 0) + 1
    counts = {}
    for r in rows:
        k = status_kind(r["status"])
        counts[k] = counts.get(k, 0) + 1
    versions = sorted({str(r["version"]) for r in rows if r.get("version") is not None})
    cmd = spec.get("command") or "(not recorded: a sweep made before report.html)"
    grid = "; ".join(f"{n} = {', '.join(vs)}" for n, vs in spec["grid"])
    title = f"Sweep {os.path.basename(os.path.abspath(d))}"

    body = [f"<h1>{h(title)}</h1>", '<dl class="about">',
            f"<dt>command</dt><dd><code>{h(cmd)}</code></dd>",
            f"<dt>grid</dt><dd>{h(grid)} ({len(pts)} points)</dd>",
            f"<dt>boids</dt><dd>{h(spec.get('boids_version'))} ({h(spec.get('bin'))})"
            + (f"; the summaries say {h(', '.join(versions))}" if versions else "") + "</dd>",
            "<dt>hosts</dt><dd>" + (h(", ".join(f"{k} ({v} runs)" for k, v in sorted(hosts.items()))) or "none yet")
            + "</dd>",
            "<dt>points</dt><dd>" + h(", ".join(f"{v} {k}" for k, v in sorted(counts.items()))) + "</dd>",
            f"<dt>written</dt><dd>{h(time.strftime('%Y-%m-%d %H:%M:%S %Z'))} by scripts/sweep-report</dd>",
            "</dl>"]
    figs = charts(d, spec)
    if figs:
        body.append('<h2>Charts</h2><div class="charts">')
        for col, uri, cap in figs:
            body.append(f'<figure><img alt="{h(col)} against {h(spec["chart_x"])}" src="{h(uri)}">'
                        f"<figcaption>{h(cap)}</figcaption></figure>")
        body.append("</div>")
    body.append(f'<h2>Every point ({len(pts)})</h2>')
    body.append(table("points", show, rows, lambda r: status_kind(r["status"]), pics))
    if srows:
        body.append("<h2>Over the seeds: mean and 95% t-interval</h2>")
        body.append(table("stats", scols, srows))
    bad = [(p, st) for p, st in zip(pts, states) if st[0] != "complete"]
    if bad:
        body.append(f"<h2>Points without a complete run ({len(bad)})</h2>")
        for p, (state, s) in bad[:TAIL_POINTS]:
            tail = log_tail(d, p)
            body.append(f'<h3 id="{h("p" + str(p["i"]))}">point {p["i"]} {h(p["name"])}: {h(describe(state, s))}</h3>')
            body.append(f'<pre class="log">{h(tail)}</pre>' if tail else "<p>no log</p>")
        if len(bad) > TAIL_POINTS:
            body.append(f"<p>... and {len(bad) - TAIL_POINTS} more (their logs are in runs/).</p>")

    scripts = [open(f, encoding="utf-8").read() for f in LIBS] + [PAGE_JS]
    style = library_css() + PAGE_CSS
    csp = ("default-src 'none'; script-src " + " ".join(sha(s) for s in scripts)
           + "; style-src " + sha(style) + "; img-src 'self' data:; media-src 'self'; "
           "base-uri 'none'; form-action 'none'")
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{h(csp)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{h(title)}</title>", f"<style>{style}</style>", "</head><body>"]
    page += body
    # a script's text never holds "</" from data: these are the libraries' and ours
    page += [f"<script>{s}</script>" for s in scripts] + ["</body></html>", ""]
    write_file(dest, "\n".join(page).encode("utf-8"))
    return dest
