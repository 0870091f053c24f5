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
import stat
import time
import urllib.parse

from .common import METRICS, Failure
from .figures import charts, posters, sensitivity_chart
from .files import write_file
from .grid import swept_names
from .results import describe
from .stats import bounds_of, interval_method

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
.charts figure, figure.wide { margin: 0 0 1.5em 0; width: 100%; }
.charts img, figure.wide img { width: 100%; display: block; border: 1px solid #ddd; }
p.answer { font-size: 1.15em; background: #eef4fa; border-left: 4px solid #4477aa; padding: .6em .9em; }
table.plain { border-collapse: collapse; margin: .5em 0; } table.plain td, table.plain th { padding: .2em .8em; }
table.plain th { text-align: left; border-bottom: 1px solid #999; }
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


def pictures(d, spec, pts, states, base):
    """{row: the <video> or <img> of a complete point}, linked from the page."""
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
    return pics


def design_text(spec, n):
    """The grid (and sample) in words, for the page's head."""
    parts = [f"{name} = {', '.join(vs)}" for name, vs in spec["grid"]]
    sample = spec.get("sample")
    if sample:
        ranges = ", ".join(f"{r[0]} in [{r[1]}, {r[2]}]" + (" (log scale)" if r[3] == "log" else "")
                           for r in spec["ranges"])
        what = {"lhs": "a scrambled Latin hypercube", "sobol": "a scrambled Sobol sequence",
                "saltelli": f"Saltelli's design ({sample['n']} base points of a scrambled Sobol sequence, "
                            f"N(k+2))"}[sample["method"]]
        parts.insert(0, f"{sample['points']} sampled points: {what} over {ranges} (seed {sample['seed']})")
    rounds = spec.get("rounds") or []
    if rounds:
        parts.append(f"then {len(rounds)} round{'s' if len(rounds) != 1 else ''} of --replicates auto: "
                     + ", ".join(f"seeds {r['seeds'][0]} to {r['seeds'][-1]} for {len(r['points'])} point"
                                 f"{'s' if len(r['points']) != 1 else ''}" for r in rounds))
    return "; ".join(parts) + f" ({n} points in all)"


def about(d, spec, pts, rows):
    """The page's head: command, design, versions, hosts, counts."""
    hosts, counts = {}, {}
    for r in rows:
        if r.get("host"):
            hosts[r["host"]] = hosts.get(r["host"], 0) + 1
        k = status_kind(r["status"])
        counts[k] = counts.get(k, 0) + 1
    versions = sorted({str(r["version"]) for r in rows if r.get("version") is not None})
    cmd = spec.get("command") or "(not recorded: a sweep made before report.html)"
    return ['<dl class="about">',
            f"<dt>command</dt><dd><code>{h(cmd)}</code></dd>",
            f"<dt>{'design' if spec.get('sample') else 'grid'}</dt><dd>{h(design_text(spec, len(pts)))}</dd>",
            f"<dt>boids</dt><dd>{h(spec.get('boids_version'))} ({h(spec.get('bin'))})"
            + (f"; the summaries say {h(', '.join(versions))}" if versions else "") + "</dd>",
            "<dt>hosts</dt><dd>" + (h(", ".join(f"{k} ({v} runs)" for k, v in sorted(hosts.items()))) or "none yet")
            + "</dd>",
            "<dt>points</dt><dd>" + h(", ".join(f"{v} {k}" for k, v in sorted(counts.items()))) + "</dd>",
            f"<dt>written</dt><dd>{h(time.strftime('%Y-%m-%d %H:%M:%S %Z'))} by scripts/sweep-report</dd>",
            "</dl>"]


def plain_table(heads, rows):
    """A small table of text and numbers (not sortable)."""
    out = ['<table class="plain"><thead><tr>' + "".join(f"<th>{h(c)}</th>" for c in heads) + "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(cell(v) for v in r) + "</tr>" for r in rows]
    return "\n".join(out + ["</tbody></table>"])


def answer_section(found):
    """The answer first: the sentence, then the numbers behind it."""
    if not found:
        return []
    body = ['<h2 id="answer">The answer</h2>', f'<p class="answer">{h(found["sentence"])}</p>']
    if found.get("goal"):
        best = found.get("best")
        if best:
            rows = [[best["point"], best["n"], best["mean"], best["ci95"][0], best["ci95"][1], "", "", "best"]]
            rows += [[c["point"], c["n"], c["mean"], None, None, c["p"], c["p_adjusted"],
                      "told apart" if c["distinguishable"] else "not told apart"] for c in found["comparisons"][:20]]
            body.append(plain_table(["point", "runs", "mean", "95% low", "95% high", "p", "p (adjusted)",
                                     "against the best"], rows))
        k = len(found.get("comparisons") or []) + 1
        body.append("<p>Welch's t-test (two-sided) of the best against each other point with two runs or more"
                    + (f", the p-values adjusted for all {k * (k - 1) // 2} pairs of the {k} points, as the data "
                       "picked the best (a step-down: Holm's method with Shaffer's count of the pairs that can "
                       "still be equal)" if k > 2 else "")
                    + f"; told apart when the adjusted p is under {(1 - found['level']) / found.get('looks', 1):.4g}"
                    + (f" ({1 - found['level']:g} divided by the {found['looks']} looks)"
                       if found.get("looks", 1) > 1 else "")
                    + ".</p>")
        if found.get("stopping_rule"):
            body.append(f"<p>Stopping rule: {h(found['stopping_rule'])}. Looks done: {found.get('looks_done')}.</p>")
    else:
        rows = [[col, a["largest"]["point"], a["largest"]["mean"], a["smallest"]["point"], a["smallest"]["mean"]]
                for col, a in found["metrics"].items()]
        body.append(plain_table(["metric", "largest mean at", "mean", "smallest mean at", "mean"], rows))
    return body


def sensitivity_section(sens):
    """Which parameters matter: the bar chart and the table of indices."""
    if not sens:
        return []
    body = [f'<h2 id="sensitivity">Which parameters matter: Sobol indices of {h(sens["metric"])}</h2>']
    uri = sensitivity_chart(sens)
    if uri:
        body.append(f'<figure class="wide"><img alt="Sobol indices of {h(sens["metric"])}" src="{h(uri)}">'
                    f"<figcaption>first-order (S1) and total (ST) indices with 95% bootstrap intervals</figcaption>"
                    "</figure>")
    body.append(plain_table(["parameter", "S1", "S1 low", "S1 high", "ST", "ST low", "ST high"],
                            [[p[c] for c in ("parameter", "S1", "S1_lo", "S1_hi", "ST", "ST_lo", "ST_hi")]
                             for p in sens["parameters"]]))
    body.append(f"<p>{h(sens['method'])}; {sens['n']} rows" + (f", {sens['rows_left_out']} left out (a run without "
                                                                "a value)" if sens["rows_left_out"] else "")
                + (f"; {h(sens['note'])}" if sens.get("note") else "") + ".</p>")
    return body


def stats_legend():
    """How stats' intervals are made, metric by metric."""
    kinds = {}
    for m in METRICS:
        kinds.setdefault(interval_method(bounds_of(m)), []).append(m)
    return "<p>95% intervals of the mean: " + h("; ".join(f"{', '.join(ms)}: {k}" for k, ms in kinds.items())) + \
        " (a metric's interval stays inside its range: the t-interval is made on a scale where the range has no " \
        "edge, then mapped back).</p>"


def failures(d, pts, states):
    """The points without a complete run, with their logs' tails."""
    bad = [(p, st) for p, st in zip(pts, states) if st[0] != "complete"]
    if not bad:
        return []
    body = [f"<h2>Points without a complete run ({len(bad)})</h2>"]
    for p, (state, s) in bad[:TAIL_POINTS]:
        tail = log_tail(d, p)
        body.append(f'<h3 id="{h("p" + str(p["i"]))}">point {p["i"]} {h(p["name"])}: {h(describe(state, s))}</h3>')
        body.append(f'<pre class="log">{h(tail)}</pre>' if tail else "<p>no log</p>")
    if len(bad) > TAIL_POINTS:
        body.append(f"<p>... and {len(bad) - TAIL_POINTS} more (their logs are in runs/).</p>")
    return body


def page(title, body):
    """The whole page: the CSP, the styles and scripts by hash."""
    scripts = [open(f, encoding="utf-8").read() for f in LIBS] + [PAGE_JS]
    style = library_css() + PAGE_CSS
    csp = ("default-src 'none'; script-src " + " ".join(sha(s) for s in scripts)
           + "; style-src " + sha(style) + "; img-src 'self' data:; media-src 'self'; "
           "base-uri 'none'; form-action 'none'")
    head = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{h(csp)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{h(title)}</title>", f"<style>{style}</style>", "</head><body>"]
    # a script's text never holds "</" from data: these are the libraries' and ours
    return "\n".join(head + body + [f"<script>{s}</script>" for s in scripts] + ["</body></html>", ""])


def write_report(d, spec, pts, states, tables, dest=None, found=None, sens=None):
    """Writes the page (through a temporary and a rename); returns its path."""
    cols, rows, scols, srows = tables
    for lib in LIBS + (CSS,):
        if not os.path.isfile(lib):
            raise Failure(f"'{lib}' is missing (apt-get install libjs-jquery-datatables libjs-jquery)")
    dest = dest or os.path.join(d, "report.html")
    base = os.path.relpath(os.path.abspath(d), os.path.dirname(os.path.abspath(dest)))
    pics = pictures(d, spec, pts, states, base)
    # the swept parameters, status, host, times, metrics, then every other
    # column whose value is not the same for every point
    core = len(swept_names(spec)) + 6 + 2 * len(METRICS)
    show = cols[:core] + [c for c in cols[core:] if any(r.get(c) != rows[0].get(c) for r in rows)]
    title = f"Sweep {os.path.basename(os.path.abspath(d))}"
    body = [f"<h1>{h(title)}</h1>"] + answer_section(found) + about(d, spec, pts, rows) + sensitivity_section(sens)
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
        body.append("<h2>Over the seeds: mean and 95% interval</h2>")
        body.append(stats_legend())
        body.append(table("stats", [c for c in scols if not c.endswith("_method")], srows))
    body += failures(d, pts, states)
    write_file(dest, page(title, body).encode("utf-8"))
    return dest
