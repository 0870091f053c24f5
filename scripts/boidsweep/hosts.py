"""Other machines over ssh (GNU parallel's --sshloginfile): the login
file's entries, and the check before a sweep starts that every machine runs
the binary and, on a shared disk, sees the sweep directory.
"""
import os
import re
import secrets
import subprocess

from .common import Failure, Usage, say, shown
from .files import posix_quote, read_file, write_file


def parse_logins(path):
    """The login file's entries: [(line as written, login without 'N/')]."""
    data = read_file(path)
    if data is None:
        raise Usage(f"--sshloginfile: cannot read '{shown(path)}'")
    logins = []
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^[0-9]+/", line)
        logins.append((line, line[m.end():] if m else line))
    if not logins:
        raise Usage(f"--sshloginfile: '{shown(path)}' names no machine")
    return logins


def check_hosts(out, spec, o, logins):
    """Every machine runs the binary and (shared disk) sees this sweep directory."""
    token = secrets.token_hex(16)
    tokfile = os.path.join(out, f".hostcheck-{token}")
    write_file(tokfile, token.encode() + b"\n")
    cmd = f"{posix_quote(spec['bin'])} --version >/dev/null && echo boids-ok"
    if not o["transfer"]:
        cmd += f" && cat {posix_quote(os.path.abspath(tokfile))}"
    args = ["parallel", "--will-cite", "--nonall", "--tag", "--sshloginfile", os.path.abspath(o["sshloginfile"]), cmd]
    try:
        p = subprocess.run(args, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
    except subprocess.TimeoutExpired:
        raise Failure("checking the machines took more than 10 minutes")
    finally:
        os.unlink(tokfile)
    seen = {}
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        host, _, rest = line.partition("\t")
        seen.setdefault(host, set()).add(rest.strip())
    problems, good = [], []
    for line, login in logins:
        got = seen.get(login, set())
        if "boids-ok" not in got:
            if o["filter_hosts"] and not got:
                say(f"machine '{shown(login)}' does not answer; left out (--filter-hosts)")
                continue
            problems.append(f"machine '{shown(login)}' cannot run '{shown(spec['bin'])}'"
                            + ("" if got else " (or cannot be reached; --filter-hosts leaves it out)"))
        elif not o["transfer"] and token not in got:
            problems.append(f"machine '{shown(login)}' does not see the sweep directory "
                            f"'{shown(os.path.abspath(out))}' (a shared disk at the same path; or use --transfer)")
        else:
            good.append(line)
    if problems:
        raise Failure("; ".join(problems))
    if not good:
        raise Failure("no machine of the login file answers")
    # the machines that answered, for GNU parallel (which retries elsewhere)
    write_file(os.path.join(out, "logins"), ("\n".join(good) + "\n").encode())
