"""Files the sweep writes and reads, safely: every file written through an
O_EXCL|O_NOFOLLOW temporary (mkstemp) and a rename, every file read without
following a symbolic link, directories that only their owner can write.
"""
import os
import re
import stat
import subprocess
import tempfile

from .common import Failure, Usage, shown


def same_file(a, b):
    """a and b are one file (device and inode; by name when one does not exist)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
        return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_dir(path, what="the sweep directory"):
    """A real directory owned by us that no other user can write into."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise Usage(f"'{shown(path)}' holds no sweep (it does not exist)")
    except OSError as e:
        raise Failure(f"cannot read '{shown(path)}': {e.strerror}")
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise Usage(f"{what} '{shown(path)}' is not a directory (a symbolic link or a file)")
    if st.st_uid != os.geteuid():
        raise Usage(f"{what} '{shown(path)}' belongs to another user (uid {st.st_uid}); "
                    "a sweep only works in directories it created")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise Usage(f"{what} '{shown(path)}' is writable by other users; "
                    "chmod go-w it, or use another --out")


def check_output(path, option="-o"):
    """A file named to be written is one a rename may replace: Usage when
    path exists and is not a regular file or a symbolic link.  Files are
    written through a temporary renamed over them, which would put a
    regular file in the place of a device, a FIFO or a socket: run by root,
    '-o /dev/null' would replace /dev/null itself."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise Usage(f"{option} '{shown(path)}' is not a regular file (a device, a FIFO, a directory...): "
                    "name a file to write")


def write_file(path, data, mode=0o644):
    """Writes data (bytes) to path through an O_EXCL|O_NOFOLLOW temporary and rename."""
    d, base = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix="." + base[:40] + ".", suffix=".tmp", dir=d or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_output_of(args, out, cwd, prefix):
    """Runs args (in cwd) with its standard output into out, through a temporary
    beside it (named prefix...) and a rename: no picture, or a failure, leaves
    nothing under out; a failure raises Failure with the tool's last line."""
    d = os.path.dirname(os.path.abspath(out))
    ext = os.path.splitext(out)[1]
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=ext + ".tmp", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            r = subprocess.run(args, stdout=f, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=cwd)
        if r.returncode != 0 or os.path.getsize(tmp) == 0:
            err = r.stderr.decode("utf-8", "replace").strip().splitlines()
            raise Failure(f"{args[0]} failed: {shown(err[-1]) if err else 'no picture'}")
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def read_file(path, limit=1 << 28):
    """Reads a regular file without following a symbolic link; None if missing."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise Failure(f"cannot read '{shown(path)}': {e.strerror}")
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise Failure(f"'{shown(path)}' is not a regular file")
        return f.read(limit)


def make_subdir(path):
    try:
        os.mkdir(path, 0o755)
    except FileExistsError:
        pass
    check_dir(path, "the directory")


def posix_quote(word):
    """One word for any POSIX shell (sh, dash, bash, zsh): single quotes."""
    if re.search(r"[\x00-\x1f\x7f]", word):
        raise Usage(f"'{shown(word)}' holds a control character")
    if re.fullmatch(r"[A-Za-z0-9_./=+,:%@-]+", word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"
