"""What a sweep is doing, on standard error: Progress draws it (a line
redrawn on a terminal, a line or a JSON object per event otherwise); Watch
follows the runs while GNU parallel or Slurm runs them and tells Progress
of every point that ends; timed() and say_phases() say how long each phase
took.
"""
import json
import os
import re
import shutil
import sys
import threading
import time

from .common import PROG, say, shown
from .results import MARK, describe, run_state
from .transfer import unpack_one


def clock(seconds):
    seconds = int(seconds + 0.5)
    h, m, sec = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


class Progress:
    """
    What a sweep is doing, on standard error: on a terminal one line redrawn
    (points done, failed, running, elapsed, time left); otherwise, or with
    --progress lines, a line per event (a point that ends), or a JSON object
    per event with --progress json; nothing with never.
    """

    def __init__(self, mode, total, done=0, what="points"):
        if mode == "auto":
            mode = "bar" if sys.stderr.isatty() else "lines"
        self.mode, self.total, self.what = mode, total, what
        self.done, self.failed, self.running, self.new = done, 0, 0, 0
        self.t0, self.shown_at, self.width = time.monotonic(), 0.0, 0

    def numbers(self):
        el = time.monotonic() - self.t0
        left = self.total - self.done - self.failed
        eta = el / self.new * left if self.new else None
        return el, eta

    def text(self):
        el, eta = self.numbers()
        t = f"{self.done}/{self.total} {self.what} done, {self.failed} failed, {self.running} running, {clock(el)}"
        return t + (f", {clock(eta)} left" if eta is not None else "")

    def emit(self, obj, line):
        if self.mode == "json":
            print(json.dumps(obj, ensure_ascii=True), file=sys.stderr, flush=True)
        elif self.mode == "lines":
            say(line)

    def event(self, kind, **kw):
        el, eta = self.numbers()
        obj = {"event": kind, **kw, "done": self.done, "failed": self.failed, "running": self.running,
               "total": self.total, "elapsed": round(el, 3), "eta": None if eta is None else round(eta, 3)}
        if kind == "point":
            line = f"point {kw['i']} '{kw['name']}': {kw['status']} ({self.text()})"
        else:
            line = f"{kind}: {self.text()}"
        self.emit(obj, line)
        self.bar(force=kind != "point")

    def point(self, p, state, s):
        if state == "complete":
            self.done += 1
        else:
            self.failed += 1
        self.new += 1
        self.event("point", i=p["i"], name=p["name"], status=state if state != "failed" else describe(state, s))

    def bar(self, force=False):
        if self.mode != "bar" or (not force and time.monotonic() - self.shown_at < 0.2):
            return
        self.shown_at = time.monotonic()
        cols = shutil.get_terminal_size((80, 24)).columns
        line = f"{PROG[0]}: {self.text()}"[:max(cols - 1, 10)]
        sys.stderr.write("\r" + line + " " * max(0, self.width - len(line)))
        self.width = len(line)
        sys.stderr.flush()

    def close(self):
        if self.mode == "bar" and self.width:
            self.bar(force=True)
            sys.stderr.write("\n")
            sys.stderr.flush()


class Watch:
    """
    Follows the runs of a sweep while GNU parallel or Slurm runs them: a point
    has ended when its log was written after the watch started and its
    running marker is gone (or the joblog lists it); tells Progress.
    """

    def __init__(self, out, todo, progress, joblog=None, transfer_ext=None):
        self.out, self.progress, self.ext = out, progress, transfer_ext
        self.todo = {p["name"]: p for p in todo}
        self.by_i = {p["i"]: p for p in todo}
        self.ended = set()
        self.t0 = time.time() - 1.0
        self.joblog = joblog
        self.joblog_at = os.path.getsize(joblog) if joblog and os.path.lexists(joblog) else 0
        self.exits = {}      # name: exit status, from the joblog's lines read so far
        self.stop = False
        self.unpacking = 0.0   # seconds of this tick spent unpacking --transfer results

    def tick(self):
        runs = os.path.join(self.out, "runs")
        marks, logs = set(), set()
        try:
            with os.scandir(runs) as it:
                for e in it:
                    n = e.name
                    if n.endswith(MARK):
                        marks.add(n[:-len(MARK)])
                    elif not self.joblog and n.endswith(".log") and n[:-4] in self.todo \
                            and n[:-4] not in self.ended:   # (the joblog says when a job ended)
                        try:
                            if e.stat(follow_symlinks=False).st_mtime >= self.t0:
                                logs.add(n[:-4])
                        except OSError:
                            pass
        except OSError:
            return
        exits = self.exits
        if self.joblog:
            # only what was added since the last tick, whole lines: a tick
            # costs the same at the 10,000th point as at the first
            try:
                with os.fdopen(os.open(self.joblog, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as f:
                    f.seek(self.joblog_at)
                    data = f.read()
            except OSError:
                data = b""
            data = data[:data.rfind(b"\n") + 1]
            self.joblog_at += len(data)
            for line in data.decode("utf-8", "replace").splitlines():
                f = line.split("\t")
                m = re.search(r"cfg/([0-9]{1,9})\.cfg", f[-1])
                if len(f) >= 9 and m and int(m.group(1)) in self.by_i:
                    exits[self.by_i[int(m.group(1))]["name"]] = f[6]
            logs |= exits.keys() - self.ended
        if self.ext is None:
            self.progress.running = len(marks & self.todo.keys())
        else:
            # --transfer: no marker comes back while a run goes; GNU parallel
            # makes ret/I.tar when it starts the job and logs it when it ends
            try:
                started = {int(f[:-4]) for f in os.listdir(os.path.join(self.out, "ret"))
                           if re.fullmatch(r"[0-9]{1,9}\.tar", f)}
            except OSError:
                started = set()
            self.progress.running = len({self.by_i[i]["name"] for i in started if i in self.by_i}
                                        - logs - self.ended)
        for name in sorted(logs - marks - self.ended, key=lambda n: self.todo[n]["i"]):
            p = self.todo[name]
            tar = os.path.join(self.out, "ret", f"{p['i']}.tar")
            try:
                if self.ext is not None and os.path.lexists(tar):
                    t = time.monotonic()
                    unpack_one(self.out, p, tar, self.ext)   # its files, as soon as it ended
                    self.unpacking += time.monotonic() - t
                st, s = run_state(self.out, p)
            except Exception as e:   # (a summary that is no file...): said, and the watch goes on
                say(f"point {p['i']} '{p['name']}': {e}")
                self.ended.add(name)
                self.progress.point(p, "failed", {"_why": shown(str(e)[:200])})
                continue
            if st == "running" and name not in exits:
                continue   # its marker was made after the scan had passed its place: not ended
            self.ended.add(name)
            if st == "missing" and name in exits:   # nothing came back
                st, s = ("complete", None) if exits[name] == "0" else \
                    ("failed", {"_why": f"exit {shown(exits[name][:12])}"})
            self.progress.point(p, st, s)
        self.progress.bar()

    def loop(self):
        while not self.stop:
            t = time.monotonic()
            self.unpacking = 0.0
            try:
                self.tick()
            except Exception as e:   # the watch must not die quietly in its thread
                say(f"watching the sweep: {e}")
            # every half second, or less often when a tick is dear (a
            # directory of 20,000 files; unpacking results is work, not a
            # look): watching takes at most ~1% of a core
            for _ in range(max(5, int(1000 * (time.monotonic() - t - self.unpacking)))):
                if self.stop:
                    break
                time.sleep(0.1)

    def __enter__(self):
        self.progress.event("start")
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop = True
        self.thread.join()
        self.tick()
        self.progress.event("end")
        self.progress.close()


PHASES = {}                         # phase -> seconds, for the closing timing line


def timed(name, t0):
    """Adds the time since t0 to a phase; returns now."""
    now = time.monotonic()
    PHASES[name] = PHASES.get(name, 0.0) + now - t0
    return now


def say_phases(mode):
    """--progress lines|json (or a log): how long each phase took, and its share."""
    total = sum(PHASES.values())
    if mode in ("never", "bar") or total <= 0 or (mode == "auto" and sys.stderr.isatty()):
        return
    if mode == "json":
        print(json.dumps({"event": "phases", **{k: round(v, 3) for k, v in PHASES.items()},
                          "total": round(total, 3)}), file=sys.stderr, flush=True)
    else:
        say(f"took {total:.1f} s: " + ", ".join(f"{k} {v:.1f} s ({100 * v / total:.0f}%)" for k, v in PHASES.items()))
