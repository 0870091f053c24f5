"""The local engine: GNU parallel runs the points on this machine or, with
--sshloginfile, on several over ssh.  Every job is the same command line
(job_command()): no value a grid holds ever reaches a shell.
"""
import os
import re
import shutil
import subprocess
import time

from .common import Failure, say
from .files import make_subdir, posix_quote, read_file, write_file
from .grid import run_config
from .progress import Watch
from .results import MARK, TRANSFER_MARK
from .transfer import unpack


def job_command(spec, transfer):
    """
    The one command line every job runs, in any POSIX shell: {1} is the
    point's index, {2} its run name (letters, digits, . , = + -).  With
    --transfer, {3} is the run's config in hexadecimal, written out by perl
    (GNU parallel needs perl on every machine anyway), and the run's files
    come back as a tar on standard output (--results), the same for this
    machine (':') as for the others.
    """
    b = posix_quote(spec["bin"])
    run = f"{b} --config cfg/{{1}}.cfg 2>runs/{{2}}.log"
    if transfer:
        return ("mkdir -p runs cfg && perl -e 'print pack(q(H*), $ARGV[0])' {3} >cfg/{1}.cfg && "
                f"{{ {run}; rc=$?; tar -cf - runs; exit $rc; }}")
    # the marker (host, the job's shell; its time is its start) says the point
    # is running.  The host name is read with the shell's own `read` where
    # Linux has it (uname -n's nodename): starting uname and date for every
    # job cost 2 to 3 ms of CPU a point, a tenth of a one-frame run.
    mark = f"runs/{{2}}{MARK}"
    return ("{ read h </proc/sys/kernel/hostname; } 2>/dev/null || h=$(uname -n); "
            f"echo \"$h $$\" >{mark}; {run}; rc=$?; rm -f {mark}; exit $rc")


def run_parallel(out, spec, o, todo, pts, progress):
    if not shutil.which("parallel"):
        raise Failure("GNU parallel is not installed (apt-get install parallel)")
    if o["transfer"]:
        make_subdir(os.path.join(out, "ret"))
        jobs = "".join(f"{p['i']}\t{p['name']}\t{run_config(spec, p['name'], p['values']).hex()}\n" for p in todo)
    else:
        jobs = "".join(f"{p['i']}\t{p['name']}\n" for p in todo)
    jobfile = os.path.join(out, "jobs.tsv")
    write_file(jobfile, jobs.encode())
    args = ["parallel", "--will-cite", "--joblog", "+joblog", "--colsep", "\t", "--halt", "never"]
    if o["jobs"]:
        args += ["--jobs", o["jobs"]]
    for k in ("retries", "timeout"):
        if o[k]:
            args += [f"--{k}", o[k]]
    if o["sshloginfile"]:
        args += ["--sshloginfile", "logins"]
        if o["transfer"]:
            args += ["--workdir", "...", "--cleanup", "--results", "ret/{1}.tar"]
        else:
            args += ["--workdir", os.path.abspath(out)]
    args += [job_command(spec, o["transfer"]), "::::", "jobs.tsv"]
    start = os.path.getsize(os.path.join(out, "joblog")) if os.path.lexists(os.path.join(out, "joblog")) else 0
    mark = os.path.join(out, TRANSFER_MARK)
    if o["transfer"]:   # --collect meanwhile: points with a results file run under this process
        write_file(mark, f"{os.uname().nodename} {os.getpid()} {int(time.time())}\n".encode())
    try:
        with Watch(out, todo, progress, os.path.join(out, "joblog"), spec["ext"] if o["transfer"] else None):
            p = subprocess.run(args, cwd=out, stdin=subprocess.DEVNULL)
        if o["transfer"]:
            unpack(out, {q["i"]: q for q in pts}, spec["ext"])
    finally:
        if o["transfer"]:
            os.unlink(mark)
    exits = joblog_exits((read_file(os.path.join(out, "joblog")) or b"")[start:])
    if p.returncode not in range(0, 102):
        say(f"GNU parallel failed (exit {p.returncode})")
    return exits


def joblog_exits(data):
    """{point: exit status} from lines of GNU parallel's job log (bytes), as
    data: a line that is not a job's (9 tab-separated fields, the exit a
    decimal number, the command naming cfg/I.cfg) is skipped."""
    exits = {}
    for line in data.decode("utf-8", "replace").splitlines():
        f = line.split("\t")
        if len(f) < 9 or not re.fullmatch(r"-?[0-9]{1,9}", f[6]):
            continue
        m = re.search(r"cfg/([0-9]{1,9})\.cfg", f[8])
        if m:
            exits[int(m.group(1), 10)] = int(f[6], 10) if f[6][0] != "-" else f[6]
    return exits
