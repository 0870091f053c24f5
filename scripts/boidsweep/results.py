"""What became of each point: its state from its summary, its running
marker (runs/NAME.running, "HOST PID [START]") and its log: complete,
interrupted, failed, stale, bad, running or missing (run_state()); the
points without a complete run listed with their logs' last lines.
"""
import os
import re

from .common import PROG, Failure, Usage, json_value, say, shown
from .files import read_file

MARK = ".running"      # runs/NAME.running: "HOST PID [START]" while the point runs
TRANSFER_MARK = ".transfer.running"   # DIR/.transfer.running: the same, of a --transfer sweep
MAX_KEYS = 4096        # keys of a summary, or of its parameters: more is no boids summary


def read_summary(out, p):
    """(state, summary or None): complete, interrupted, failed, stale, bad, missing."""
    path = os.path.join(out, "runs", p["name"] + ".json")
    try:
        data = read_file(path, 1 << 24)
    except Failure:
        return "bad", None
    if data is None:
        return "missing", None
    try:
        s = json_value(data)
    except ValueError:
        return "bad", None
    if not isinstance(s, dict) or len(s) > MAX_KEYS or \
            isinstance(s.get("parameters"), dict) and len(s["parameters"]) > MAX_KEYS:
        return "bad", None
    st = s.get("status")
    if st not in ("complete", "interrupted", "failed"):
        return "bad", s  # a summary from before status existed is no result
    if st == "complete" and (s.get("options_hash") != p["hash"] or s.get("frames") != s.get("frames_asked")):
        return "stale", s
    return st, s


def field_width(s):
    """The width of a run's field in pixels, from its summary's parameters
    (640, the default, when the summary does not say it as a number above 0)."""
    params = s.get("parameters") if isinstance(s, dict) and isinstance(s.get("parameters"), dict) else {}
    try:
        w = float(str(params.get("size", "640x360")).split("x")[0])
    except ValueError:
        return 640.0
    return w if 0 < w < 1e9 else 640.0


def metric(s, name, stat="final"):
    """A summary's metric (final or mean) as a finite number, or None."""
    ms = s.get("metrics") if isinstance(s, dict) else None
    v = ms.get(name) if isinstance(ms, dict) else None
    x = v.get(stat) if isinstance(v, dict) else None
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < float("inf") else None


def read_marker(out, p):
    """(host, pid, start) of the point's running marker, or None."""
    return read_marker_file(os.path.join(out, "runs", p["name"] + MARK))


def read_marker_file(path):
    """(host, pid, start) of a marker 'HOST PID [START]' (0: not written), or None."""
    try:
        data = read_file(path, 4096)
    except Failure:
        return None
    m = re.fullmatch(rb"(\S{1,255}) ([0-9]{1,9})(?: ([0-9]{1,12}))?\n?", data or b"")
    if not m:
        return None   # not a marker the job wrote: no sign of a run
    return shown(m.group(1).decode("utf-8", "replace")), int(m.group(2)), int(m.group(3) or 0)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return pid > 0


def run_state(out, p, here=None):
    """
    read_summary(), and what the files say of a point without a result:
    running (its marker names a live process here, or another machine, which
    is not checked), failed (a marker whose process is gone, or a log and no
    summary: the run ended without writing one) or missing (never started).
    """
    state, s = read_summary(out, p)
    if state == "complete":
        return state, s
    mk = read_marker(out, p)
    here = here or os.uname().nodename
    if mk is not None:
        host, pid, _ = mk
        if host != here or alive(pid):
            return "running", {"host": host, "pid": pid,
                               "_why": f"running on {host}, pid {pid}" + ("" if host == here else " (not checked)")}
        if state == "missing":
            return "failed", {"host": host, "_why": f"died while running on {host} (pid {pid}): no summary"}
    if state == "missing" and os.path.lexists(os.path.join(out, "runs", p["name"] + ".log")):
        return "failed", {"_why": "ended without a summary"}
    if state == "missing" and os.path.lexists(os.path.join(out, "ret", f"{p['i']}.tar")):
        # --transfer: GNU parallel made the point's results file when the job
        # started; its files come back when it ends, so no marker says where
        sweep = read_marker_file(os.path.join(out, TRANSFER_MARK))
        if sweep is not None and sweep[0] == here and alive(sweep[1]):
            return "running", {"_why": f"running under --transfer (sweep pid {sweep[1]}; "
                               "its host is known when its files come back)"}
        return "failed", {"_why": "its files never came back (--transfer: the sweep stopped first)"}
    return state, s


def describe(state, s):
    if isinstance(s, dict) and isinstance(s.get("_why"), str):
        return s["_why"]
    if state == "interrupted":
        sig = s.get("signal")
        return f"interrupted by signal {sig}" if isinstance(sig, int) else "interrupted"
    return {"failed": "failed", "stale": "made with other options (options_hash differs)",
            "bad": "unreadable summary", "missing": "no summary"}.get(state, state)


def report_missing(out, pts, states, exits=None):
    bad = [(p, st) for p, st in zip(pts, states) if st[0] != "complete"]
    for p, (state, s) in bad[:50]:
        log = os.path.join(out, "runs", p["name"] + ".log")
        why = describe(state, s)
        if exits and p["i"] in exits:
            why = ("failed without a summary" if state in ("missing", "failed") and not (s or {}).get("status")
                   else why) + f", exit {exits[p['i']]}"
        last = ""
        data = read_file(log, 1 << 20) if os.path.lexists(log) else None
        if data:
            tail = data.decode("utf-8", "replace").strip().splitlines()
            last = ": " + shown(tail[-1][:300]) if tail else ""
        say(f"point {p['i']} '{p['name']}': {why}{last} (log: {shown(log)})")
    if len(bad) > 50:
        say(f"... and {len(bad) - 50} more points without a complete run")
    return len(bad)


OUTPUTS = ("table.csv", "table.jsonl", "stats.csv", "stats.jsonl", "chart.png", "report.html")


def check_outputs(out, pts):
    """No table, chart or report is one of the files they are made from (a hard
    link from an output to a summary, a log or the grid): Usage."""
    linked = {}
    for f in OUTPUTS:
        try:
            st = os.lstat(os.path.join(out, f))
        except FileNotFoundError:
            continue
        if st.st_nlink > 1:
            linked[(st.st_dev, st.st_ino)] = f
    if not linked:
        return
    ins = [os.path.join(out, f) for f in ("sweep.json", "grid.jsonl", "grid.idx")]
    ins += [os.path.join(out, "runs", p["name"] + x) for p in pts for x in (".json", ".log")]
    for f in ins:
        try:
            st = os.lstat(f)
        except FileNotFoundError:
            continue
        if (st.st_dev, st.st_ino) in linked:
            raise Usage(f"'{shown(os.path.join(out, linked[(st.st_dev, st.st_ino)]))}' is the same file as "
                        f"'{shown(f)}', which it is made from; remove the link")


def kind(state):
    """A point's state as counted: complete, running, missing or failed (every
    run that ended without a complete result: failed, interrupted, stale, bad)."""
    return state if state in ("complete", "running", "missing") else "failed"


def summary_line(out, total, counts, collecting=False):
    """The closing line; the exit status: 0 every point complete, 1 a point
    ended without a complete run (or, at the end of a sweep, lacks one), 3
    (--collect) nothing failed but points are running or not started."""
    msg = f"{PROG[0]}: {counts['complete']} of {total} points complete"
    rest = [f"{counts[k]} {k}" for k in ("failed", "running", "missing") if counts[k]]
    msg += (" (" + ", ".join(rest) + ")" if rest else "") + f"; table: {os.path.join(out, 'table.csv')}"
    for f, what in (("chart.png", "chart"), ("report.html", "report")):
        if os.path.lexists(os.path.join(out, f)):
            msg += f", {what}: {os.path.join(out, f)}"
    print(msg, flush=True)
    if counts["complete"] == total:
        return 0
    return 3 if collecting and not counts["failed"] else 1
