"""Setting a sweep up: every point checked by boids before anything runs.

The points are streamed through `boids --config BASE --check-configs -
--config-dir D`, which reads a point a line (its values and run files as
JSON), checks it with the run's own parse and resolve step, writes D/K.cfg
and answers with the point's options hash (or "-" when it refuses the
line, said on its standard error with the line's number, and goes on; an
older boids stops at the first refusal).  SETUP_PROCS such processes take
the points in turn (point I to process I mod P).  The answers go into
grid.jsonl and grid.idx (its byte offsets) as they come, the configs to
cfg/I.cfg; memory stays bounded at any grid size.
"""
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading

from .common import Failure, Usage, json_value, shown
from .design import design_csv
from .files import write_file
from .grid import check_names, count_points, json_line, point_name, point_settings, points
from .sweepdir import IDX_WIDTH, create_dir

SETUP_PROCS = 2                    # boids processes a set-up streams the grid through
REFUSALS_SHOWN = 50                # refused points listed one a line, then a count


def stored_line(f):
    """The next point of a stored grid.jsonl, or None (past its end, or not JSON)."""
    try:
        return json_value(f.readline(1 << 20) or b"null")
    except ValueError:
        return None


def refusals(err):
    """{line number: message} of boids' refusals ('boids: -:N: why')."""
    got = {}
    for line in err.splitlines():
        m = re.match(r"boids: -:([0-9]{1,12}): (.*)", line)
        if m:
            got.setdefault(int(m.group(1)), m.group(2))
    return got


class Checkers:
    """The boids --check-configs processes of a set-up, fed by threads."""

    def __init__(self, out, spec, b, nproc):
        self.out, self.nproc = out, nproc
        self.stages = [f".cfg.{k}" for k in range(nproc)]
        self.procs, self.errfs, self.feeders = [], [], []
        for k in range(nproc):
            shutil.rmtree(os.path.join(out, self.stages[k]), ignore_errors=True)
            os.mkdir(os.path.join(out, self.stages[k]), 0o755)
            self.errfs.append(tempfile.TemporaryFile(dir=out))
            self.procs.append(subprocess.Popen([b, "--config", ".base.cfg", "--check-configs", "-",
                                                "--config-dir", self.stages[k]], cwd=out, stdin=subprocess.PIPE,
                                               stdout=subprocess.PIPE, stderr=self.errfs[k]))

    def feed(self, spec, todo):
        """Each process gets its share of todo() (an iterator of points) on a thread."""
        def run(k):
            try:
                for j, (values, sample) in enumerate(todo()):
                    if j % self.nproc == k:
                        self.procs[k].stdin.write(json_line(point_settings(spec, point_name(values, sample),
                                                                           values)))
                self.procs[k].stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass  # boids stopped: its exit status and message tell why
        for k in range(self.nproc):
            self.feeders.append(threading.Thread(target=run, args=(k,), daemon=True))
            self.feeders[-1].start()

    def answer(self, j):
        """The answer to the j-th point fed: a hash, '-' (refused) or '' (the process ended)."""
        return self.procs[j % self.nproc].stdout.readline().strip().decode("ascii", "replace")

    def config(self, j):
        """Where the j-th point's config was written."""
        return os.path.join(self.out, self.stages[j % self.nproc], f"{j // self.nproc}.cfg")

    def finish(self, kill):
        """(exit statuses, standard errors) once the processes ended."""
        for pr in self.procs:
            if kill:
                pr.kill()
        rcs = [pr.wait() for pr in self.procs]
        for t in self.feeders:
            t.join()
        errs = []
        for f in self.errfs:
            f.seek(0)
            errs.append(f.read(1 << 22).decode("utf-8", "replace"))
        return rcs, errs

    def close(self):
        for pr in self.procs:
            if pr.poll() is None:
                pr.kill()
                pr.wait()
        for f in self.errfs:
            f.close()
        for st in self.stages:
            shutil.rmtree(os.path.join(self.out, st), ignore_errors=True)


def base_error(why):
    """A refusal of the options every point has (the set-up's .base.cfg) as
    the user typed them, without the file's name and line."""
    return re.sub(r"^(--config: )?\.base\.cfg(:[0-9]+)?: ", "", why)


def refused_message(refused, checkers, errs, n):
    """Every refused point, a line each: 'SWEEP: --grid: point LABEL: why'
    (or the options of every point, when it is theirs)."""
    said = [refusals(e) for e in errs]
    lines = []
    for j, i, values, sample in refused[:REFUSALS_SHOWN]:
        why = said[j % checkers.nproc].get(j // checkers.nproc + 1) or \
            errs[j % checkers.nproc].strip().removeprefix("boids: ") or "refused"
        if base_error(why) != why:
            return f"the boids options: {base_error(why)}"
        label = ",".join(f"{key}={v}" for key, v in values)
        lines.append(f"--grid: point {shown(label if sample is None else f'sample={sample},' + label)}: {why}")
    if len(refused) > 1:
        more = len(refused) - len(lines)
        lines.append(f"--grid: {len(refused)} of {n} points refused" + (f" ({more} not listed)" if more else "")
                     + "; nothing was run")
    return "\n".join(lines)


def check_points(out, spec, b, rows, first, cfg, grid, idx, old):
    """Streams the points from index first through boids, writing each
    answer to grid and idx (open files, idx's offsets continuing from
    grid's position) and each config into cfg.  Usage for refused points."""
    todo = lambda: itertools.islice(points(spec, rows), first, None)
    n = count_points(spec) - first
    checkers = Checkers(out, spec, b, max(1, min(SETUP_PROCS, os.cpu_count() or 1, n)))
    try:
        checkers.feed(spec, todo)
        off, done, refused, ended, other = grid.tell(), 0, [], None, False
        for j, (values, sample) in enumerate(todo()):
            i, h = first + j, checkers.answer(j)
            if h == "-":
                refused.append((j, i, values, sample))
                continue
            if not h.startswith("sha256:"):
                ended = (j, i, values, sample)
                break
            entry = {"i": i, "name": point_name(values, sample), "values": values, "hash": h}
            if sample is not None:
                entry["sample"] = sample
            line = (json.dumps(entry, ensure_ascii=True) + "\n").encode()
            if old is not None and stored_line(old) != json.loads(line):
                other = True
                break
            os.rename(checkers.config(j), os.path.join(cfg, f"{i}.cfg"))
            grid.write(line)
            idx.write(b"%0*d\n" % (IDX_WIDTH - 1, off))
            off += len(line)
            done += 1
        rcs, errs = checkers.finish(kill=bool(ended or other))
        if other or (old is not None and old.readline()):
            raise Usage(f"--resume: '{shown(b)}' gives other settings for the points than the sweep in "
                        f"'{shown(out)}' had (another boids version?); use the sweep's binary or another --out")
        if ended and not refused and ended[0] == 0 and rcs[0] == 2 and not errs[0].startswith("boids: -:"):
            raise Usage(f"the boids options: {base_error(errs[0].strip().removeprefix('boids: ')) or 'rejected'}")
        if ended and rcs[ended[0] % checkers.nproc] == 2:
            refused.append(ended)      # an older boids: it stopped at its first refusal
        if refused:
            raise Usage(refused_message(sorted(refused), checkers, errs, n))
        if any(rcs) or done != n:
            raise Failure(f"'{shown(b)} --check-configs' failed (exit {max(rcs)}): {''.join(errs).strip()[:2000]}")
    finally:
        checkers.close()


def set_up(out, spec, b, stored, rows=None):
    """
    Checks every point and writes its config and the grid (a new sweep, or
    --resume: the hashes must be the stored grid's, as another binary may
    give other settings; the configs are replaced at the end).  rows: a
    sampled design, written as design.csv.  Usage when boids refuses the
    options or any point, every refused point said; a directory this call
    created is then removed.
    """
    check_names(spec)
    if stored:
        old = open(os.path.join(out, "grid.jsonl"), "rb")
        cfg = os.path.join(out, ".cfg.new")
        shutil.rmtree(cfg, ignore_errors=True)
        os.mkdir(cfg, 0o755)
    else:
        old = None
        created = create_dir(out)
        cfg = os.path.join(out, "cfg")
    base = os.path.join(out, ".base.cfg")
    grid = idx = None
    try:
        write_base(base, spec)
        grid = tempfile.NamedTemporaryFile(dir=out, prefix=".grid.", delete=False)
        idx = tempfile.NamedTemporaryFile(dir=out, prefix=".idx.", delete=False)
        check_points(out, spec, b, rows, 0, cfg, grid, idx, old)
        grid.close()
        idx.close()
        if spec.get("sample") and not stored:
            write_file(os.path.join(out, "design.csv"), design_csv(spec, rows))
        os.replace(grid.name, os.path.join(out, "grid.jsonl"))
        os.replace(idx.name, os.path.join(out, "grid.idx"))
        if stored:
            keep = os.path.join(out, ".cfg.old")
            shutil.rmtree(keep, ignore_errors=True)
            os.rename(os.path.join(out, "cfg"), keep)
            os.rename(cfg, os.path.join(out, "cfg"))
            shutil.rmtree(keep, ignore_errors=True)
    except BaseException:
        if stored:
            shutil.rmtree(cfg, ignore_errors=True)
        elif created:
            shutil.rmtree(out, ignore_errors=True)
        else:  # adopted empty: empty again
            for e in os.listdir(out):
                shutil.rmtree(os.path.join(out, e), ignore_errors=True)
                if os.path.lexists(os.path.join(out, e)):
                    os.unlink(os.path.join(out, e))
        raise
    finally:
        for f in [base] + ([grid.name] if grid else []) + ([idx.name] if idx else []):
            try:
                os.unlink(f)
            except OSError:
                pass
        if old is not None:
            old.close()


def write_base(path, spec):
    write_file(path, spec["base_config"].encode("utf-8", "surrogateescape") +
               ("\n".join(spec["fixed_config"]) + "\n").encode("utf-8", "surrogateescape"))


def add_points(out, spec, b, first):
    """--replicates auto: the points from index first (a new round's), checked
    and appended to grid.jsonl and grid.idx (both replaced whole, through
    temporaries) with their configs.  Usage when boids refuses one."""
    base = os.path.join(out, ".base.cfg")
    temps = []
    try:
        write_base(base, spec)
        for name in ("grid.jsonl", "grid.idx"):
            t = tempfile.NamedTemporaryFile(dir=out, prefix=f".{name}.", delete=False)
            with open(os.path.join(out, name), "rb") as f:
                shutil.copyfileobj(f, t)
            temps.append(t)
        check_points(out, spec, b, None, first, os.path.join(out, "cfg"), temps[0], temps[1], None)
        for t, name in zip(temps, ("grid.jsonl", "grid.idx")):
            t.close()
            os.replace(t.name, os.path.join(out, name))
    finally:
        for f in [base] + [t.name for t in temps]:
            try:
                os.unlink(f)
            except OSError:
                pass
