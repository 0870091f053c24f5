"""scripts/contact-sheet: the last frame of each complete run of a sweep,
tiled into one labelled PNG in grid order by ImageMagick's montage.  A
run's last frame is drawn again from its trajectory with the run's own
config, or taken from the end of its video with ffmpeg.
"""
import os
import re
import shutil
import subprocess
import tempfile

from .boids import find_bin
from .common import METRICS, PROG, Failure, Usage, did_you_mean, say, shown
from .files import check_output, same_file, write_output_of
from .grid import run_config
from .results import describe, field_width, metric, read_summary
from .sweepdir import load_spec, open_dir, read_grid

USAGE = """\
Usage: scripts/contact-sheet [OPTION]... SWEEP_DIR
Tile the last frame of each complete run of a sweep (scripts/sweep's --out
DIR) into one labelled PNG, in grid order.  A run's last frame is drawn
again from its trajectory (runs/NAME.csv, sweep --with-trajectory) with the
run's own settings (its config, cfg/I.cfg), or else taken from the end of its
video (runs/NAME.EXT) with ffmpeg.

  -o FILE          the PNG to write [SWEEP_DIR/contact-sheet.png]
  --width PX       width of each picture [320]
  --columns N      pictures per row [the number of values of the last --grid]
  --metric NAME    add the run's final value of this metric to its label
                   (polarization, milling, mean_speed, nn_distance,
                   gyration_radius, clusters; none for no value) [polarization]
  --title TEXT     title above the tiles [the sweep directory's name]
  --bin PATH       the boids binary [the sweep's]
  -h, --help       show this help and exit

Needs ImageMagick (montage; Debian package imagemagick) and, for runs
without a trajectory, ffmpeg.  Labels are text, never file references or
%-escapes; montage writes to its standard output, into a file this script
creates.  Exit status: 0 written, 1 failure, 2 bad usage.
"""
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"   # Debian fonts-dejavu-core


def im_text(s):
    """Text for -label/-title: no %-escapes, no @file, printable."""
    s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    s = re.sub(r"[\x00-\x1f\x7f]", " ", s).replace("\\", "\\\\").replace("%", "%%")
    return " " + s if s.startswith("@") else s


def parse(argv):
    """The options {name: value} and the sweep directory; None for --help."""
    o = {"-o": None, "--width": "320", "--columns": None, "--metric": "polarization", "--title": None, "--bin": None}
    d, i = None, 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-h", "--help"):
            return None
        k, eq, v = a.partition("=") if a.startswith("--") else (a, "", "")
        if k in o:
            if not eq:
                if i >= len(argv):
                    raise Usage(f"{a} needs a value")
                v = argv[i]
                i += 1
            o[k] = v
        elif a.startswith("-"):
            raise Usage(f"unknown option '{shown(a)}'" + (did_you_mean(k, list(o) + ["--help"]) or " (see --help)"))
        elif d is not None:
            raise Usage(f"one sweep directory only ('{shown(d)}' and '{shown(a)}')")
        else:
            d = a
    if d is None:
        raise Usage("no sweep directory given (see --help)")
    if not re.fullmatch(r"[1-9][0-9]{0,3}", o["--width"]) or int(o["--width"]) > 4096:
        raise Usage(f"--width: '{shown(o['--width'])}' is not a width from 1 to 4096")
    if o["--columns"] is not None and not re.fullmatch(r"[1-9][0-9]{0,3}", o["--columns"]):
        raise Usage(f"--columns: '{shown(o['--columns'])}' is not a positive number")
    if o["--metric"] not in METRICS + ("none",):
        raise Usage(f"--metric: unknown metric '{shown(o['--metric'])}'"
                    + did_you_mean(o["--metric"], METRICS + ("none",)))
    return o, d


def refuse_inputs(d, spec, pts, out):
    """-o is none of the files the sheet is made from: Usage otherwise."""
    inputs = [os.path.join(d, f) for f in ("grid.jsonl", "sweep.json", "grid.idx")]
    for p in pts:
        inputs += [os.path.join(d, "runs", f"{p['name']}.{x}") for x in ("json", "csv", spec["ext"])]
        inputs.append(os.path.join(d, "cfg", f"{p['i']}.cfg"))
    for f in inputs:
        if (os.path.lexists(f) or not os.path.lexists(out)) and same_file(out, f):
            raise Usage(f"-o '{shown(out)}' is one of the files it reads ('{shown(f)}'); choose another file")


def tile(d, spec, p, b, o, work):
    """Point p's tile in work/ and its label: (label, file name), or None
    (said) when the point has no picture."""
    state, s = read_summary(d, p)
    if state != "complete":
        say(f"{p['name']}: {describe(state, s)}; left out")
        return None
    width = int(o["--width"])
    lines = [f"{k}={v}" for k, v in p["values"]]
    m = metric(s, o["--metric"]) if o["--metric"] != "none" else None
    if m is not None:
        lines.append(f"{o['--metric']} {m:.3g}")
    png = os.path.join(work, f"tile_{p['i']}_0.png")
    traj = os.path.join(os.path.abspath(d), "runs", p["name"] + ".csv")
    video = os.path.join(os.path.abspath(d), "runs", f"{p['name']}.{spec['ext']}")
    if os.path.isfile(traj) and not os.path.islink(traj):
        # the run's own config, then what a one-frame picture needs
        cfg = os.path.join(work, f"{p['i']}.cfg")
        with open(cfg, "wb") as f:
            f.write(run_config({**spec, "render": False, "with_traj": False, "with_metrics": False},
                               p["name"], p["values"]))
            f.write(b"summary = \nno-render = no\nwarmup = 0\n")
        args = [b, "--config", cfg, "--init", traj, "--frames", "1",
                "--start-number", "0", "--scale", repr(width / field_width(s)), "--progress", "never",
                "-y", "-o", os.path.join(work, f"tile_{p['i']}_%d.png")]
    elif os.path.isfile(video) and not os.path.islink(video):
        args = ["ffmpeg", "-nostdin", "-v", "error", "-sseof", "-1", "-i", "file:" + video,
                "-vf", f"scale={width}:-2", "-update", "1", "-y", "file:" + png]
    else:
        say(f"{p['name']}: no trajectory and no video (sweep --with-trajectory); left out")
        return None
    r = subprocess.run(args, capture_output=True, stdin=subprocess.DEVNULL, cwd=work)
    if r.returncode != 0 or not os.path.isfile(png):
        err = r.stderr.decode("utf-8", "replace").strip().splitlines()
        say(f"{p['name']}: cannot draw its last frame: {shown(err[-1]) if err else '?'}")
        return None
    # montage turns the two characters \n of a label into a line break
    return "\\n".join(im_text(line) for line in lines), os.path.basename(png)


def montage(tiles, cols, title, out, work):
    """The tiles assembled by montage into out (through a temporary)."""
    font = ["-font", FONT] if os.path.isfile(FONT) else []
    args = ["montage"] + font + tiles + ["-tile", f"{cols}x", "-geometry", "+8+8", "-background", "#1e1e1e",
                                        "-fill", "#e8e8e8", "-pointsize", "13", "-depth", "8",
                                        "-title", im_text(title), "png:-"]
    write_output_of(args, out, work, ".contact-sheet.")


def main(argv):
    """scripts/contact-sheet."""
    parsed = parse(argv)
    if parsed is None:
        print(USAGE, end="")
        return 0
    o, d = parsed
    open_dir(d)
    spec = load_spec(d)
    pts = read_grid(d)
    b = find_bin(o["--bin"]) if o["--bin"] else spec["bin"]
    if not shutil.which("montage"):
        raise Failure("montage is not installed (apt-get install imagemagick)")
    out = o["-o"] or os.path.join(d, "contact-sheet.png")
    check_output(out)
    refuse_inputs(d, spec, pts, out)
    title = o["--title"] if o["--title"] is not None else \
        os.path.basename(os.path.abspath(d)) + ": the last frame of each run"
    work = tempfile.mkdtemp(prefix="boids-sheet-")
    try:
        tiles = []
        for p in pts:
            t = tile(d, spec, p, b, o, work)
            if t:
                tiles += ["-label", t[0], t[1]]
        if not tiles:
            raise Failure(f"no run of '{shown(d)}' has a picture to show")
        # as many columns as the last grid has values; a sampled design: rows of 8
        cols = o["--columns"] or str(len(spec["grid"][-1][1]) if spec["grid"] else min(8, len(tiles) // 3))
        montage(tiles, cols, title, out, work)
        print(f"{PROG[0]}: {len(tiles) // 3} runs in {shown(out)}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
