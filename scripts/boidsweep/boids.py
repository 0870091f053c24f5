"""The boids binary: where it is, whether it can be trusted, and what it
says of its options (--list-options, JSON; never --help).
"""
import json
import os
import re
import shutil
import stat
import subprocess

from .common import Failure, Usage, shown

HERE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))   # scripts/, or where installed


def find_bin(given):
    """--bin, else $BOIDS, else the checkout's build/boids, else boids on PATH."""
    b = given or os.environ.get("BOIDS") or ""
    if not b:
        cand = os.path.join(HERE, "..", "build", "boids")
        b = cand if os.access(cand, os.X_OK) else "boids"
    if "/" not in b:
        found = shutil.which(b)
        if not found:
            raise Usage("no boids binary: build it (make) or give --bin PATH")
        b = found
    if not (os.path.isfile(b) and os.access(b, os.X_OK)):
        raise Usage(f"--bin: '{shown(b)}' is not an executable file")
    return os.path.abspath(b)


def check_bin_owner(b):
    """A binary someone else could replace is not run."""
    st = os.stat(b)
    if st.st_uid not in (0, os.geteuid()) or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise Usage(f"the binary '{shown(b)}' can be changed by another user; not running it")


def run_boids(b, args, cwd=None):
    """Runs boids with an argument list; returns (status, stdout, stderr) as text."""
    try:
        p = subprocess.run([b] + args, capture_output=True, cwd=cwd, stdin=subprocess.DEVNULL)
    except OSError as e:
        raise Failure(f"cannot run '{shown(b)}': {e.strerror}")
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), \
        p.stderr.decode("utf-8", "replace").strip()


def list_options(b):
    """(version, {name: option}) from boids --list-options."""
    st, out, err = run_boids(b, ["--list-options"])
    try:
        table = json.loads(out)
        opts = {o["name"]: o for o in table["options"]}
    except (ValueError, KeyError, TypeError, RecursionError):
        raise Failure(f"'{shown(b)} --list-options' gives no option list (a boids before 1.0.0?): {err}")
    if st != 0 or "frames" not in opts:
        raise Failure(f"'{shown(b)} --list-options' does not look like boids")
    return table.get("version", "?"), opts


def config_value(v):
    """A value as boids' config reader reads it back (see cli.c put_config_value)."""
    if v and (v[0] in " \t\"" or v[-1] in " \t" or re.search(r"[\x00-\x1f\x7f]", v)):
        esc = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
        return '"' + "".join(esc.get(c, c) for c in v) + '"'
    return v
