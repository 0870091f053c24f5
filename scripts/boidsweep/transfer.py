"""--transfer (no shared disk): each run's files come back as a tar on the
job's standard output (GNU parallel's --results DIR/ret/I.tar), unpacked
here as data: only regular files named runs/NAME.* of the job's own point,
written through temporaries; links and other paths are ignored.
"""
import os
import re
import stat
import tarfile

from .common import say, shown
from .files import write_file


def unpack(out, pts_by_i, ext):
    """--transfer: the files of each run that came back, as data (no links, no paths)."""
    ret = os.path.join(out, "ret")
    for f in sorted(os.listdir(ret)):
        path = os.path.join(ret, f)
        m = re.fullmatch(r"([0-9]{1,9})\.tar", f)
        if not m:
            if re.fullmatch(r"[0-9]{1,9}\.tar\.(err|seq)", f):
                os.unlink(path)
            continue
        unpack_one(out, pts_by_i.get(int(m.group(1), 10)), path, ext)


def unpack_one(out, p, path, ext):
    """One run's tar (ret/I.tar, p its point or None), unpacked and removed."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or p is None:
            raise ValueError("not a result of this sweep")
        if st.st_size == 0:
            raise ValueError("nothing came back")
        allowed = {f"runs/{p['name']}.{x}" for x in ("json", "log", ext, "csv", "metrics.csv")}
        with tarfile.open(path, "r:") as t:
            for mem in t.getmembers():
                if mem.isdir() and mem.name.rstrip("/") == "runs":
                    continue
                if not mem.isfile() or mem.name not in allowed:
                    say(f"result of point {p['i']}: '{shown(mem.name)}' is not a file of run "
                        f"'{p['name']}'; ignored")
                    continue
                write_file(os.path.join(out, mem.name), t.extractfile(mem).read())
    except (OSError, ValueError, tarfile.TarError) as e:
        say(f"cannot unpack '{shown(path)}': {e}")
    for x in ("", ".err", ".seq"):
        try:
            os.unlink(path + x)
        except FileNotFoundError:
            pass
