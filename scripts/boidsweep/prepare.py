"""Setting a sweep up: every point checked by boids before anything runs.

The grid is streamed through `boids --check-configs` (SETUP_PROCS processes
taking the points in turn), which checks each point with the run's own
parse and resolve step, writes its config and answers with its options
hash; the answers go into grid.jsonl and grid.idx as they come.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading

from .common import Failure, Usage, json_value, shown
from .files import write_file
from .grid import check_names, count_points, json_line, point_settings, points, sanitize
from .sweepdir import IDX_WIDTH, create_dir

SETUP_PROCS = 2                    # boids processes a set-up streams the grid through


def stored_line(f):
    """The next point of a stored grid.jsonl, or None (past its end, or not JSON)."""
    try:
        return json_value(f.readline(1 << 20) or b"null")
    except ValueError:
        return None


def boids_refusal(err, what):
    """boids' message about the first refused line, without 'boids: -:N: '."""
    for line in err.splitlines():
        m = re.match(r"boids: -:[0-9]+: (.*)", line)
        if m:
            return m.group(1)
    return err.strip().removeprefix("boids: ") or what


def set_up(out, spec, b, stored):
    """
    Checks every point and writes its config and the grid, streaming the grid
    through boids: `boids --config BASE --check-configs - --config-dir D`
    reads a point a line (its values and run files as JSON), checks it with
    the run's own parse and resolve step, writes D/K.cfg and answers with the
    point's options hash, which goes into grid.jsonl (and grid.idx, its byte
    offsets) as it comes.  SETUP_PROCS such processes take the points in
    turn (point I to process I mod P, each with a directory of its own, the
    configs renamed to cfg/I.cfg in order).  Memory stays bounded at any grid
    size.  --resume: the hashes must be the stored grid's (another binary may
    give other settings); the configs are replaced at the end.  Usage when
    boids refuses the options or a point; a directory this call created is
    then removed.
    """
    check_names(spec)
    n = count_points(spec)
    if stored:
        old = open(os.path.join(out, "grid.jsonl"), "rb")
        cfg = os.path.join(out, ".cfg.new")
        shutil.rmtree(cfg, ignore_errors=True)
        os.mkdir(cfg, 0o755)
    else:
        old = None
        created = create_dir(out)
        cfg = os.path.join(out, "cfg")
    nproc = max(1, min(SETUP_PROCS, os.cpu_count() or 1, n))
    stages = [f".cfg.{k}" for k in range(nproc)]
    base = os.path.join(out, ".base.cfg")
    procs, errfs, feeders, grid, idx = [], [], [], None, None
    try:
        write_file(base, spec["base_config"].encode("utf-8", "surrogateescape") +
                   ("\n".join(spec["fixed_config"]) + "\n").encode("utf-8", "surrogateescape"))
        for k in range(nproc):
            shutil.rmtree(os.path.join(out, stages[k]), ignore_errors=True)
            os.mkdir(os.path.join(out, stages[k]), 0o755)
            errfs.append(tempfile.TemporaryFile(dir=out))
            procs.append(subprocess.Popen([b, "--config", ".base.cfg", "--check-configs", "-",
                                           "--config-dir", stages[k]], cwd=out, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=errfs[k]))

        def feed(k):
            try:
                for j, p in enumerate(points(spec)):
                    if j % nproc == k:
                        label = ",".join(f"{key}={v}" for key, v in p)
                        procs[k].stdin.write(json_line(point_settings(spec, sanitize(label), p)))
                procs[k].stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass  # boids stopped: its exit status and message tell why
        for k in range(nproc):
            feeders.append(threading.Thread(target=feed, args=(k,), daemon=True))
            feeders[-1].start()
        grid = tempfile.NamedTemporaryFile(dir=out, prefix=".grid.", delete=False)
        idx = tempfile.NamedTemporaryFile(dir=out, prefix=".idx.", delete=False)
        off, i, refused = 0, 0, None
        for p in points(spec):
            k = i % nproc
            h = procs[k].stdout.readline().strip().decode("ascii", "replace")
            if not h.startswith("sha256:"):
                refused = (i, p)
                break
            label = ",".join(f"{key}={v}" for key, v in p)
            line = (json.dumps({"i": i, "name": sanitize(label), "values": p, "hash": h},
                               ensure_ascii=True) + "\n").encode()
            if old is not None and stored_line(old) != json.loads(line):
                refused = (i, None)
                break
            os.rename(os.path.join(out, stages[k], f"{i // nproc}.cfg"), os.path.join(cfg, f"{i}.cfg"))
            grid.write(line)
            idx.write(b"%0*d\n" % (IDX_WIDTH - 1, off))
            off += len(line)
            i += 1
        for pr in procs:
            if refused:
                pr.kill()
        rcs = [pr.wait() for pr in procs]
        for t in feeders:
            t.join()
        errs = []
        for f in errfs:
            f.seek(0)
            errs.append(f.read(1 << 16).decode("utf-8", "replace"))
        grid.close()
        idx.close()
        if refused and refused[1] is None or (old is not None and old.readline()):
            raise Usage(f"--resume: '{shown(b)}' gives other settings for the points than the sweep in "
                        f"'{shown(out)}' had (another boids version?); use the sweep's binary or another --out")
        if refused and refused[0] == 0 and rcs[0] == 2 and not errs[0].startswith("boids: -:"):
            raise Usage(f"the boids options: {errs[0].strip().removeprefix('boids: ') or 'rejected'}")
        if refused:
            label = ",".join(f"{key}={v}" for key, v in refused[1])
            raise Usage(f"--grid: point {shown(label)}: {boids_refusal(errs[refused[0] % nproc], 'refused')}")
        if any(rcs) or i != n:
            raise Failure(f"'{shown(b)} --check-configs' failed (exit {max(rcs)}): {''.join(errs).strip()}")
        os.replace(grid.name, os.path.join(out, "grid.jsonl"))
        os.replace(idx.name, os.path.join(out, "grid.idx"))
        if stored:
            keep = os.path.join(out, ".cfg.old")
            shutil.rmtree(keep, ignore_errors=True)
            os.rename(os.path.join(out, "cfg"), keep)
            os.rename(cfg, os.path.join(out, "cfg"))
            shutil.rmtree(keep, ignore_errors=True)
    except BaseException:
        for pr in procs:
            if pr.poll() is None:
                pr.kill()
                pr.wait()
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
        for f in errfs:
            f.close()
        for f in [base] + ([grid.name] if grid else []) + ([idx.name] if idx else []):
            try:
                os.unlink(f)
            except OSError:
                pass
        for st in stages:
            shutil.rmtree(os.path.join(out, st), ignore_errors=True)
        if old is not None:
            old.close()
