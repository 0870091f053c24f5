"""Messages, the two failures every command turns into an exit status, and
'did you mean'.

Usage is bad input (one line, exit 2, nothing written); Failure is a
runtime failure (one line, exit 1).  Only an entry point (run()) prints
them and exits.
"""
import json
import os
import re
import sys
import traceback

METRICS = ("polarization", "milling", "mean_speed", "nn_distance", "gyration_radius", "clusters")
NO_SWEEP = {"output", "summary", "trajectory", "metrics", "config", "overwrite", "progress", "quiet"}
PROG = ["sweep"]                   # the command's name in its messages (set by run())
T0 = [0.0]                         # when the command started (its phases' times)


class Usage(Exception):
    """Bad input: one line (a line per refused point of a grid), exit 2."""


class Failure(Exception):
    """Runtime failure: one line, exit 1."""


def say(msg):
    print(f"{PROG[0]}: {msg}", file=sys.stderr, flush=True)


def shown(s):
    """A value for a message: control bytes and undecodable bytes escaped."""
    b = s.encode("utf-8", "surrogateescape") if isinstance(s, str) else s
    return b.decode("utf-8", "backslashreplace").encode("unicode_escape").decode("ascii") \
        if re.search(r"[\x00-\x1f\x7f]", b.decode("utf-8", "replace")) else b.decode("utf-8", "backslashreplace")


def json_value(data):
    """data (bytes: UTF-8, other bytes kept as surrogate escapes) as JSON;
    ValueError for anything a reader cannot hold: bad syntax, bad
    encoding, nesting deeper than the parser goes, numbers too long, a
    document too big for memory."""
    try:
        if isinstance(data, bytes):
            data = data.decode("utf-8", "surrogateescape")
        return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deeply")
    except MemoryError:
        raise ValueError("too large to hold")


def edit_distance(a, b):
    """Optimal string alignment distance: insertions, deletions, substitutions
    and swaps of two neighbours ('wieght' is 1 from 'weight')."""
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def nearest(word, names, most=3):
    """The names nearest to word (edit distance at most a third of its length,
    at least 2 and less than the length), the closest first: what 'did you
    mean' offers."""
    limit = min(max(2, len(word) // 3), len(word) - 1)
    scored = sorted((edit_distance(word, n), n) for n in set(names))
    best = [n for d, n in scored if d <= min(limit, scored[0][0] + 1)] if scored else []
    if not best:
        best = [n for _, n in sorted((0, n) for n in set(names) if word and (n.startswith(word) or word in n))]
    return best[:most]


def did_you_mean(word, names, prefix=""):
    """' (did you mean --a or --b?)', or '' when no name is near."""
    near = nearest(word, names)
    if not near:
        return ""
    near = [prefix + n for n in near]
    return " (did you mean " + (near[0] if len(near) == 1 else ", ".join(near[:-1]) + " or " + near[-1]) + "?)"


DEBIAN_PYTHON = "/usr/bin/python3"     # has NumPy and SciPy with python3-numpy, python3-scipy


def with_scipy():
    """The statistics need NumPy and SciPy, which Debian's python3 has
    (python3-numpy, python3-scipy) and a python3 of pyenv or a venv first
    on PATH often lacks: such an interpreter hands the command over to
    Debian's (execv, same arguments) when that is another one."""
    if any(os.path.isdir(os.path.join(p or os.curdir, "scipy")) for p in sys.path):
        return
    if os.access(DEBIAN_PYTHON, os.X_OK) and os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON):
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)


def run(prog, main, argv):
    """An entry point's whole life: main(argv)'s exit status, Usage as exit 2
    and Failure as exit 1 (one line each), Ctrl-C as 130, a closed output
    pipe (| head) as a quiet 141.  Whatever else escapes is a bug, said in
    one line with where it happened, exit 1: never a traceback."""
    PROG[0] = prog
    with_scipy()
    try:
        status = main(argv)
        sys.stdout.flush()
    except Usage as e:
        for line in str(e).splitlines() or [""]:
            say(line)
        status = 2
    except Failure as e:
        for line in str(e).splitlines() or [""]:
            say(line)
        status = 1
    except KeyboardInterrupt:
        say("interrupted")
        status = 130
    except BrokenPipeError:
        status = 141
    except (MemoryError, RecursionError) as e:
        say(f"out of memory or stack: {type(e).__name__}")
        status = 1
    except Exception as e:  # a bug: one line, with where it happened
        where = traceback.extract_tb(e.__traceback__)[-1]
        say(f"internal error: {type(e).__name__}: {shown(str(e))[:200]} "
            f"({where.filename.rsplit('/', 1)[-1]}:{where.lineno}); please report it")
        status = 1
    if status == 141:   # stdout is gone: nothing may be flushed to it at exit
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
    sys.exit(status)
