#!/usr/bin/env python3
"""Checks the CI templates of examples/ci/ as YAML (python3-yaml), the
way the services read them: the steps in an order that works, every file
they name present in the checkout, what they publish made by the script
they call.  Usage: ci_templates.py SRCDIR; prints one line per problem,
exit 1 if any."""
import os
import re
import sys

import yaml

SRC = sys.argv[1]
problems = []


def need(ok, what):
    if not ok:
        problems.append(what)


def published():
    """The files examples/publish-demo.sh writes under $OUT (public)."""
    text = open(os.path.join(SRC, "examples/publish-demo.sh")).read()
    return set(re.findall(r'"\$OUT/([\w.]+)"', text)) | set(re.findall(r'\$OUT/([\w.]+)', text))


def files_named(text):
    """Paths of the checkout a step names (scripts/..., examples/...)."""
    return re.findall(r"\b((?:scripts|examples)/[\w./-]+\w)", text)


def demo_clip(step, who):
    """The publishing step gives publish-demo.sh the clip make demo wrote
    (CLIP=flock.mp4), rendered with publish-demo.sh's settings, and the
    script renders the MP4 only without CLIP and the poster as one frame."""
    make = open(os.path.join(SRC, "Makefile")).read()
    demo = re.search(r"^demo:.*\n(?:\t.*\n)*", make, re.M)
    line = re.search(r"\$\(BUILD\)/boids (.*)", demo.group(0)) if demo else None
    args = line.group(1).split() if line else []
    out = args[args.index("-o") + 1] if "-o" in args else None
    need(re.search(r"\bCLIP=" + re.escape(out or "?") + r"\b", step), "%s: publish-demo.sh is not given make demo's "
                                                                     "clip (CLIP=%s): %s" % (who, out, step))
    pub = open(os.path.join(SRC, "examples/publish-demo.sh")).read()
    mp4 = re.findall(r'"\$BOIDS" (.*) -o "\$OUT/flock\.mp4" (.*)', pub)
    want = sorted(a for a in args if a not in ("-y", "-q", "-o", out))
    got = sorted(a for a in " ".join(mp4[0] if mp4 else ()).split() if a not in ("-y", "-q"))
    need(mp4 and got == sorted(want + ["--frames", '"$frames"']) and "frames=300" in pub,
         "publish-demo.sh renders its MP4 with other settings than make demo (%s against %s)" % (got, want))
    need(re.search(r'if \[ -n "\$\{CLIP:-\}" \]; then\s+cp "\$CLIP" "\$OUT/flock\.mp4"', pub),
         "publish-demo.sh does not publish CLIP as it is")
    poster = re.findall(r'-o "\$OUT/poster\.png" (.*)', pub)
    need(poster and "--frames 1" in poster[0] and "--warmup 300" in poster[0],
         "publish-demo.sh renders more than the one frame its poster shows: %s" % poster)


def github(path):
    raw = open(path).read()
    d = yaml.safe_load(raw)
    on = d.get("on", d.get(True))  # YAML 1.1 reads a bare `on` as true
    need(on and "push" in on, "github: no push trigger")
    need("tags" in on["push"], "github: tags do not trigger the release")
    perms = d.get("permissions", {})
    for k, v in (("contents", "write"), ("pages", "write"), ("id-token", "write")):
        need(perms.get(k) == v, "github: permissions %s: %s, want %s" % (k, perms.get(k), v))
    need(re.search(r"Settings\s*(->|→)\s*Pages.*Source:[\s#]*\"?GitHub Actions", raw, re.S),
         "github: the Pages set-up (Settings -> Pages -> Source: GitHub Actions) is not stated")
    steps = d["jobs"]["render"]["steps"]

    def index(pred, what):
        for i, s in enumerate(steps):
            if pred(s):
                return i
        problems.append("github: no step %s" % what)
        return -1
    uses = lambda name: (lambda s: str(s.get("uses", "")).startswith(name))
    runs = lambda pat: (lambda s: re.search(pat, str(s.get("run", ""))) is not None)
    checkout = index(uses("actions/checkout@"), "actions/checkout")
    cache = index(uses("actions/cache@"), "actions/cache")
    keep = index(runs(r"docker-clean"), "that keeps downloaded packages")
    update = index(runs(r"apt-get update"), "running apt-get update")
    listing = index(runs(r"--print-uris"), "listing what the archive would send (apt-get --print-uris)")
    build = index(runs(r"\bmake demo\b"), "make demo")
    publish = index(runs(r"examples/publish-demo\.sh"), "running examples/publish-demo.sh")
    upload = index(uses("actions/upload-pages-artifact@"), "actions/upload-pages-artifact")
    release = index(lambda s: "release" in str(s.get("uses", "")), "attaching to the release")
    need(0 <= checkout < cache, "github: the cache (its key hashes a file of the checkout) comes before "
                                "actions/checkout")
    need(keep < cache < build, "github: the apt cache must be restored after docker-clean is removed and "
                               "before make demo installs the packages")
    need(update <= listing < cache, "github: the cache key must be worked out from the archive (apt-get update, "
                                    "then --print-uris) before the cache is restored")
    need(checkout < build < publish < upload, "github: build, render and upload are out of order")
    key = steps[cache]["with"]["key"] if cache >= 0 else ""
    # the key follows the archive: it hashes the file the listing step writes,
    # the URIs and SHA-256 of the packages of install-deps.sh's build list
    text = str(steps[listing].get("run", "")) if listing >= 0 else ""
    written = re.findall(r"--print-uris[^\n>]*\$\(sh scripts/install-deps\.sh --list build\)[^\n>]*>\s*(\S+)", text)
    hashed = re.findall(r"hashFiles\('([^']+)'\)", key)
    need(written and hashed == written, "github: the cache key (%s) does not hash the packages the archive would send "
                                        "for install-deps.sh's build list (%s)" % (key, written))
    demo_clip(steps[publish].get("run", "") if publish >= 0 else "", "github")
    need(steps[cache]["with"]["path"] == "/var/cache/apt/archives", "github: the cache keeps the wrong path")
    made = published()
    need(steps[upload]["with"]["path"] == "public", "github: Pages uploads %s, not public/" % steps[upload]["with"]["path"])
    rel = steps[release]
    need("refs/tags/" in str(rel.get("if", "")), "github: the release step does not run on tags only")
    for f in str(rel["with"]["files"]).split():
        need(f.startswith("public/") and f[len("public/"):] in made,
             "github: the release attaches %s, which publish-demo.sh does not make" % f)
    for s in steps:
        for f in files_named(str(s.get("run", ""))):
            need(os.path.exists(os.path.join(SRC, f)), "github: a step runs %s, which is not there" % f)
    pages = d["jobs"]["pages"]
    need(pages.get("needs") == "render", "github: the Pages deploy does not wait for the render")
    need(any(str(s.get("uses", "")).startswith("actions/deploy-pages@") for s in pages["steps"]),
         "github: no actions/deploy-pages")
    need(pages.get("environment", {}).get("name") == "github-pages", "github: Pages needs the github-pages environment")


def gitlab(path):
    d = yaml.safe_load(open(path).read())
    for f in d["cache"]["key"]["files"]:
        need(os.path.exists(os.path.join(SRC, f)), "gitlab: the cache key names %s, which is not there" % f)
    pages = d["pages"]
    need(pages["artifacts"]["paths"] == ["public"], "gitlab: the pages job does not publish public/")
    before, script = pages["before_script"], pages["script"]
    cfg = [i for i, c in enumerate(before) if "Dir::Cache::Archives" in c]
    inst = [i for i, c in enumerate(before) if "apt-get install" in c]
    need(cfg and inst and cfg[0] < inst[0], "gitlab: apt's cache directory is set after apt-get installs")
    need(d["cache"]["paths"] == [".apt/"] and d["variables"]["APT_CACHE"].endswith("/.apt"),
         "gitlab: the cached path is not apt's cache directory")
    build = [i for i, c in enumerate(script) if re.search(r"\bmake demo\b", c)]
    publish = [i for i, c in enumerate(script) if "examples/publish-demo.sh" in c]
    need(build and publish and build[0] < publish[0], "gitlab: make demo does not come before publish-demo.sh")
    # a key can only hash the commit's files: the cache follows the archive by
    # being saved every time, after apt-get autoclean dropped what Debian replaced
    clean = [i for i, c in enumerate(script) if re.search(r"apt-get autoclean", c)]
    need(clean and build and clean[0] > build[0], "gitlab: no apt-get autoclean after make demo installs: the cache "
                                                  "would keep every version Debian replaced")
    need(d["cache"].get("policy", "pull-push") == "pull-push", "gitlab: the cache is not saved after each pipeline")
    if publish:
        demo_clip(script[publish[0]], "gitlab")
    for c in before + script:
        for f in files_named(c):
            need(os.path.exists(os.path.join(SRC, f)), "gitlab: a command runs %s, which is not there" % f)
    rel = d["release"]
    need(rel.get("needs") == ["pages"], "gitlab: the release does not wait for pages")
    need(any("CI_COMMIT_TAG" in str(r.get("if", "")) for r in rel.get("rules", [])), "gitlab: the release is not for tags")
    made = published()
    for link in rel["release"]["assets"]["links"]:
        m = re.search(r"/raw/public/([\w.]+)\?job=pages$", link["url"])
        need(m and m.group(1) in made and link["name"] == m.group(1),
             "gitlab: the release links %s, which publish-demo.sh does not make" % link["url"])


github(os.path.join(SRC, "examples/ci/github-actions.yml"))
gitlab(os.path.join(SRC, "examples/ci/gitlab-ci.yml"))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
