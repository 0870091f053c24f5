#!/usr/bin/env python3
"""The docs' commands, run as written.

Usage: tests/integration/docs-commands.py [--list] [--only FILE] [SRCDIR]

Extracts every command the user-facing docs show and runs it: README.md,
docs/*.md (every Markdown page there, USAGE.md's full recipes included,
found by its name) and the EXAMPLES of the man page (docs/boids.1).  SRCDIR (the
checkout, by default the one holding this script) provides scripts/; the
boids binary is $BOIDS_BIN, or else SRCDIR/build/boids.  Exit 0 when every
command ran with the status the doc gives; 1 otherwise, or when an entry of
the tables below matches no command (the doc changed: the entry must be
reviewed).  --list prints what would run,
skip and be substituted, and runs nothing.

What counts as a command (the docs' convention, docs/ARCHITECTURE.md,
"Commands in the docs"):
  - Markdown: every line of a fenced block whose info string is sh, bash,
    shell or console, a line ending in a backslash joined to the next;
    in a console block (and in a block without an info string) only the
    lines that start with "$ ", the rest being output.  A ```python block
    is run with python3 in the same directory; r, julia and matlab blocks
    are listed and skipped (no interpreter on Debian's base install);
    c blocks and blocks without an info string are listings, not commands.
    Commands in inline code (`boids ...` in a sentence) are not run here:
    the gallery's are scripts/docs-images.sh's (tests/integration/gallery.c).
  - The man page: the ".B" line after each ".TP" under ".SH EXAMPLES".

How they run: the commands of one doc run in the order the doc gives them,
each in bash (pipefail; a python block in this script's python3) in a fresh
temporary directory of its own, which holds a copy of each file or
directory an earlier command of the same doc made and this one names (as a
word: `--init t.csv` after `--trajectory t.csv`; `space/table.csv` names the
directory space), the latest made if several made it, and nothing else: a
command that needs what no earlier command made fails, as it would for a
reader going down the page, and so does one that names as its output a file
an earlier one made (boids and ffmpeg refuse it without -y); one that writes
what an earlier one wrote without naming it (flock.mp4, the default) is not
refused for it (the docs' lines are alternatives, not one session).
The binary's directory and SRCDIR/scripts come first on PATH, and a link
`scripts` to SRCDIR/scripts is in the directory (the docs write
`scripts/sweep` as from the checkout); standard input is /dev/null; LC_ALL=C.UTF-8.  Each must exit
with the status EXPECT gives (0 by default) within TIMEOUT seconds.

Commands that cannot run here are in SKIP with the reason, and heavy ones
in SHRINK with the textual substitution applied (fewer frames, a smaller
flock) and why it keeps the command's point; both are keyed by the
command's exact text and reviewed like code.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TIMEOUT = 300

# command text -> why it is not run here
SKIP = {
    # README.md (and docs/INSTALL.md, in prose)
    "make demo": "installs packages and builds in the checkout; ci_templates/* runs it in a copy of the tree "
                 "(the CI templates' steps), and CI (.ci/run) on a bare Debian 12",
    "make test": "the hermetic suite itself: make check runs it, fresh_clone/* in a clean clone as an ordinary "
                 "user, CI (.ci/run) on a bare Debian 12",
    # docs/SWEEPS.md
    "scripts/sweep --sshloginfile sweep.hosts --retries 2 --filter-hosts --grid 'align-weight=0,0.01,0.05' "
    "--replicates 4 -- --no-render":
        "ssh to other hosts (node1/node2.example.org); test_sweep_hosts/* runs the same over loopback",
    "scripts/sweep --slurm --jobs 50 --sbatch-opt=--time=02:00:00 --grid 'align-weight=0,0.01,0.05' "
    "--replicates 20 --frames 20000 -- --no-render":
        "needs a Slurm cluster; test_sweep/* submits to a one-node Slurm where one can start",
}

# language of a fenced block -> why its blocks are not run
SKIP_LANG = {
    "r": "no R on Debian's base install (r-base and r-bioc-rhdf5 are not boids's dependencies)",
    "julia": "no Julia in Debian 12",
    "matlab": "MATLAB is proprietary",
}

# command text -> ([(old, new), ...], why the shrunk command still shows what the doc says)
SHRINK = {
    # README.md and docs/USAGE.md (the README's recipes are a selection of USAGE.md's)
    "boids -n 10000000 --field 151800x151800 -s 3840x2160 --warmup 300 --draw density --view-end 0,0,1500 "
    "--follow --trajectory ten.h5 --trajectory-precision single --trajectory-every 30 -o ten.mp4":
        ([(" -o ten.mp4", " -f 2 -o ten.mp4"), ("--warmup 300", "--warmup 1")],
         "two frames of the ten million boids in 4K instead of 300 (the whole field's density, then the "
         "zoom's last window, on the largest flock), one warm-up step and one frame of its trajectory "
         "(a step is ~4 s of CPU)"),
    "boids -n 20000 --field 9050x5090 --warmup 300 --view-end 0,0,640 --follow -o zoom.mp4":
        ([(" -o zoom.mp4", " -f 60 -o zoom.mp4")], "60 frames of the 300: the same zoom, quicker"),
    "boids -n 20000 --field 9050x5090 --warmup 300 --view 4500,2500,800 -o part.mp4":
        ([(" -o part.mp4", " -f 30 -o part.mp4")], "30 frames of the 300"),
    "boids -n 10000 -s 1920x1080 --draw fast -o many.mp4":
        ([(" -o many.mp4", " -f 20 -o many.mp4")], "20 frames of the 300"),
    "boids -s hd720 --fps 30000/1001 --codec hevc -o ntsc.mkv":
        ([(" -o ntsc.mkv", " -f 20 -o ntsc.mkv")], "20 frames of the 300 (libx265 at 720p is slow)"),
    "boids --scale 3 -o big.mp4":
        ([(" -o big.mp4", " -f 20 -o big.mp4")], "20 frames of the 300 at 1920x1080"),
    "boids -o - | ffmpeg -i - -c:v libx265 out.mp4":
        ([("boids -o -", "boids -f 30 -o -")], "30 frames of the 300 through the pipe (libx265 is slow)"),
    "boids --no-render -n 100000 -s 16384x9216 -f 50 --trajectory t.h5":
        ([("-n 100000", "-n 10000")],
         "a tenth of the flock in the same field and frames (TRAJECTORIES.md's --init-frame 20 and frame 10 "
         "of its Python need the 50)"),
    "boids -m opengl -o clip.mp4":
        ([(" -o clip.mp4", " -f 60 -o clip.mp4")], "60 frames of the 300 (its tails cost ~0.1 s a frame)"),
    "boids -m opengl --predators 3 --show-ranges -o ranges.mp4":
        ([(" -o ranges.mp4", " -f 60 -o ranges.mp4")], "60 frames of the 300 (as above)"),
    "boids --config run.cfg":
        ([("run.cfg", "run.cfg -f 60")], "60 frames of the file's 300 (its 500 boids in a wrapped field)"),
    "boids --config run.cfg --seed 2":
        ([("run.cfg", "run.cfg -f 60")], "60 frames of the file's 300"),
    # docs/MODELS-FIELD.md
    "scripts/hysteresis --out memory --param couzin-orientation "
    "--values 0,0.5,1,1.5,2,2.5,3,3.5,4,5,6,8,10,13,15 --replicates 15 -- -m couzin":
        ([("--values 0,0.5,1,1.5,2,2.5,3,3.5,4,5,6,8,10,13,15 --replicates 15",
           "--values 0,1,5 --replicates 2 --steps 300 --measure 100")],
         "three values, two chains and 300 steps a value instead of 15 values, 15 chains and 2000 (435 runs, "
         "minutes): the same chains up and down, their table and charts; test_couzin/* checks the states"),
    # docs/TRAJECTORIES.md
    "boids --init t.h5 -f 300 -o more.mp4":
        ([("-f 300", "-f 10")], "10 frames of the 300"),
    "boids --init t.h5 --init-frame 20 -f 300 -o again.mp4":
        ([("-f 300", "-f 10")], "10 frames of the 300"),
    "boids -m vicsek --field 31.6x31.6 -n 4000 --vicsek-noise 2 -o v.mp4":
        ([(" -o v.mp4", " -f 30 -o v.mp4")], "30 frames of the 300 (4000 arrows with their 20-step trails)"),
    # docs/MODELS-FIELD.md
    "scripts/sweep --out fig2a --grid 'boids=40,100,400,4000'     --grid 'vicsek-noise=0,0.25,0.5,0.75,1,1.25,"
    "1.5,1.75,2,2.25,2.5,2.75,3,3.25,3.5,3.75,4,4.25,4.5,4.75,5'     --replicates 3 --chart-x vicsek-noise -- -m "
    "vicsek --vicsek-density 4 --warmup 5000 --substeps 10 --frames 100 --threads 1 --no-render":
        ([("'boids=40,100,400,4000'", "'boids=40,100'"),
          ("'vicsek-noise=0,0.25,0.5,0.75,1,1.25,1.5,1.75,2,2.25,2.5,2.75,3,3.25,3.5,3.75,4,4.25,4.5,4.75,5'",
           "'vicsek-noise=0,2.5,5'"), ("--replicates 3", "--replicates 2"), ("--warmup 5000", "--warmup 100"),
          ("--frames 100", "--frames 10")],
         "the same sweep, its table and chart, over 2 flocks, 3 noises and 2 seeds, short runs (the whole "
         "takes some 20 minutes; tests/integration/test_vicsek.c checks a reduced one's v_a falls)"),
    "scripts/sweep --out fig2b --grid 'vicsek-density=0.1,0.25,0.5,1,2,3,4,6,8,10'     --replicates 3 --chart-x "
    "vicsek-density -- -m vicsek --field 20x20 --vicsek-noise 2 --warmup 5000 --substeps 10 --frames 100 --threads 1 "
    "--no-render":
        ([("'vicsek-density=0.1,0.25,0.5,1,2,3,4,6,8,10'", "'vicsek-density=0.25,1'"),
          ("--replicates 3", "--replicates 2"), ("--warmup 5000", "--warmup 100"), ("--frames 100", "--frames 10")],
         "the same sweep over 2 densities and 2 seeds, short runs (tests/integration/test_vicsek.c checks a "
         "reduced one's v_a grows)"),
    # docs/boids.1
    "boids -n 20000 --field 9050x5090 --warmup 300 --draw density --view-end 0,0,640 --follow -o zoom.mp4":
        ([(" -o zoom.mp4", " -f 60 -o zoom.mp4")], "60 frames of the 300: the same zoom, quicker"),
    "boids -n 10000 -s 1920x1080 -o big.mp4":
        ([(" -o big.mp4", " -f 10 -o big.mp4")], "10 frames of the 300 (exact drawing of 10,000 boids in 1080p)"),
}

# command text -> the exit status the doc says it gives
EXPECT = {}


def commands_md(path):
    """(line, kind, text) for each command of a Markdown file; kind: sh, python or a skipped language."""
    out = []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang, start, i = m.group(1).lower(), i + 1, i + 1
        body = []
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        if lang == "python":
            out.append((start + 1, "python", "\n".join(l for _, l in body) + "\n"))
        elif lang in SKIP_LANG:
            out.append((start + 1, lang, "\n".join(l for _, l in body)))
        elif lang in ("sh", "bash", "shell", "console", ""):
            prompted = lang in ("console", "")
            pending, at = "", 0
            for n, l in body:
                if prompted and not pending:
                    if not l.startswith("$ "):
                        continue
                    l = l[2:]
                if not pending and not l.strip():
                    continue
                if not pending:
                    at = n
                if l.endswith("\\"):
                    pending += l[:-1].rstrip() + " "
                    continue
                text = pending + l.strip()
                pending = ""
                out.append((at, "sh", text))
    return out


def commands_man(path):
    """(line, "sh", text) for each ".B" command after a ".TP" under EXAMPLES."""
    out = []
    lines = open(path, encoding="utf-8").read().split("\n")
    section = ""
    for i, l in enumerate(lines):
        if l.startswith(".SH "):
            section = l[4:].strip()
        elif section == "EXAMPLES" and l.startswith(".B ") and i > 0 and lines[i - 1] == ".TP":
            text = l[3:].replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\")
            text = re.sub(r"\\f[BIRP]", "", text)
            out.append((i + 1, "sh", text))
    return out


def shell_text(text):
    """The command without its trailing comment (a # after a blank, outside
    quotes), as the tables key it."""
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and i > 0 and text[i - 1] in " \t":
            return text[:i].strip()
    return text.strip()


def names_in(text, made):
    """The files and directories earlier commands made that TEXT names (as a
    word, or as the first component of a path: space/table.csv names space)."""
    return [m for m in made if re.search(r"(?<![\w.-])" + re.escape(m) + r"(?![\w.-])", text)]


def run_one(srcdir, env, scratch, where, kind, text, made, listing, used, counts):
    """Runs one command in a fresh directory holding what it names of MADE,
    then adds what it made to MADE; 0, or 1 when it failed."""
    key = shell_text(text) if kind == "sh" else text
    if kind in SKIP_LANG:
        print(f"SKIP {where} ({kind} block): {SKIP_LANG[kind]}")
        counts["skipped"] += 1
        return 0
    if key in SKIP:
        used.add(("skip", key))
        print(f"SKIP {where} {key}\n     why: {SKIP[key]}")
        counts["skipped"] += 1
        return 0
    run, bad = text, 0
    if key in SHRINK:
        used.add(("shrink", key))
        subs, why = SHRINK[key]
        for old, new in subs:
            if old not in run:
                print(f"FAIL {where}: SHRINK's '{old}' is not in '{key}'")
                bad = 1
            run = run.replace(old, new, 1)
        print(f"     {where} shrunk: {why}")
        counts["shrunk"] += 1
    want = EXPECT.get(key, 0)
    if key in EXPECT:
        used.add(("expect", key))
    label = key if kind == "sh" else f"(python block, {len(text.splitlines())} lines)"
    inputs = names_in(run, made)
    if listing:
        print(f"RUN  {where} {run if kind == 'sh' else label}" + (f"  [with {' '.join(inputs)}]" if inputs else ""))
        return bad
    work = tempfile.mkdtemp(prefix="cmd.", dir=scratch)
    for name in inputs:
        src = os.path.join(made[name], name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(work, name), symlinks=True)
        else:
            shutil.copy2(src, os.path.join(work, name))
    os.symlink(os.path.join(srcdir, "scripts"), os.path.join(work, "scripts"))
    argv = ["bash", "-o", "pipefail", "-c", run] if kind == "sh" else [sys.executable, "-c", run]
    t0 = time.monotonic()
    # its own process group, so that a timeout ends the command's children
    # too (boids, ffmpeg, GNU parallel), not only its shell
    p = subprocess.Popen(argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=TIMEOUT)
        st, log = p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        st, log = "timeout", (out or b"").decode("utf-8", "replace")
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    dt = time.monotonic() - t0
    counts["ran"] += 1
    os.unlink(os.path.join(work, "scripts"))
    for name in os.listdir(work):
        made[name] = work
    with_ = f" [with {' '.join(inputs)}]" if inputs else ""
    if st == want:
        print(f"ok   {where} {label}{with_}  ({dt:.1f} s)")
        return bad
    print(f"FAIL {where} {label}{with_}\n     exit {st}, the doc says {want} ({dt:.1f} s); output:")
    print("     | " + "\n     | ".join(log.rstrip().split("\n")[-15:]))
    return 1


def docs(srcdir):
    found = [("README.md", commands_md(os.path.join(srcdir, "README.md")))]
    for name in sorted(os.listdir(os.path.join(srcdir, "docs"))):
        if name.endswith(".md"):
            found.append(("docs/" + name, commands_md(os.path.join(srcdir, "docs", name))))
    found.append(("docs/boids.1", commands_man(os.path.join(srcdir, "docs", "boids.1"))))
    return found


def main():
    args = sys.argv[1:]
    listing = "--list" in args
    only = None
    if "--only" in args:
        only = args[args.index("--only") + 1]
        del args[args.index("--only"):args.index("--only") + 2]
    args = [a for a in args if a != "--list"]
    srcdir = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."))
    # the binary's directory: BOIDS_BIN's (make test-integration sets it), else SRCDIR/build
    bindir = os.path.dirname(os.path.abspath(os.environ["BOIDS_BIN"])) if os.environ.get("BOIDS_BIN") \
        else os.path.join(srcdir, "build")
    for need in (os.path.join(bindir, "boids"), os.path.join(srcdir, "scripts", "sweep")):
        if not os.path.exists(need):
            print(f"docs-commands: no {need} (make first)", file=sys.stderr)
            return 2
    env = dict(os.environ, LC_ALL="C.UTF-8",
               PATH=bindir + ":" + os.path.join(srcdir, "scripts") + ":" + os.environ["PATH"])
    env.pop("BOIDS_TEST_EXEC", None)
    used, failed, counts = set(), [], {"ran": 0, "skipped": 0, "shrunk": 0, "failed": 0}
    t_all = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped run still removes its directories
    scratch = tempfile.mkdtemp(prefix="docs-commands.")
    try:
        for doc, cmds in docs(srcdir):
            if only and doc != only:
                continue
            made = {}  # name -> the directory of the latest command that made it
            for line, kind, text in cmds:
                before = set(made.values())
                if run_one(srcdir, env, scratch, f"{doc}:{line}", kind, text, made, listing, used, counts):
                    failed.append(f"{doc}:{line}")
                    counts["failed"] += 1
                for d in before - set(made.values()):  # every file it made was made again since
                    shutil.rmtree(d, ignore_errors=True)
            for d in set(made.values()):
                shutil.rmtree(d, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if not only:
        for table, name in ((SKIP, "skip"), (SHRINK, "shrink"), (EXPECT, "expect")):
            for key in table:
                if (name, key) not in used:
                    print(f"FAIL {name.upper()} entry matches no command of the docs (review it): {key}")
                    failed.append(key)
    print(f"docs-commands: {counts['ran']} ran ({counts['shrunk']} shrunk), {counts['skipped']} skipped, "
          f"{counts['failed']} failed, {len(failed) - counts['failed']} stale table entries, "
          f"{time.monotonic() - t_all:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
