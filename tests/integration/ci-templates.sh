#!/bin/sh
# ci-templates — the shell steps of a CI template (examples/ci/), in the
# order its runner runs them, each with sh -e, from a checkout.
#
#   tests/integration/ci-templates.sh --print TEMPLATE   print them as one sh script
#   tests/integration/ci-templates.sh TEMPLATE [DIR]      run them in DIR (default .)
#
# GitHub Actions: the `run:` steps of the job that renders (the `uses:`
# steps are the service's own: the checkout is DIR, the cache and uploads
# are skipped), each in its own sh -e as the runner does.  GitLab CI: the
# pages job's before_script then script in one sh -e, with the file's
# variables and CI_PROJECT_DIR=DIR.  Extracting needs python3-yaml; the
# printed script needs only sh, so it runs on a bare Debian 12 -- as root,
# as the templates' debian:12 image does -- in a copy of the checkout:
#
#   tests/integration/ci-templates.sh --print examples/ci/gitlab-ci.yml > steps.sh
#   (then, in the copy, on the bare machine)  sh steps.sh
#
# tests/integration/ci_templates.c runs both on this machine.
set -eu

print=0
if [ "${1:-}" = --print ]; then
	print=1
	shift
fi
[ $# -ge 1 ] || { echo "usage: $0 [--print] TEMPLATE [DIR]" >&2; exit 2; }
template=$1
dir=${2:-.}

steps=$(python3 - "$template" <<'PY'
import shlex
import sys

import yaml

path = sys.argv[1]
d = yaml.safe_load(open(path))
out = ["#!/bin/sh", "# the shell steps of %s, in order (tests/integration/ci-templates.sh)" % path,
       "set -e", 'export CI=true CI_PROJECT_DIR="$(pwd)"']
n = 0


def step(name, text):
    global n
    n += 1
    if "${{" in text:
        sys.exit("ci-templates: %s: step '%s' uses a ${{ }} expression: no value outside the service"
                 % (path, name))
    out.append("echo %s >&2" % shlex.quote("ci-templates: step %d: %s" % (n, name)))
    out.append("sh -e <<'CI_TEMPLATES_STEP_%d'\n%s\nCI_TEMPLATES_STEP_%d" % (n, text.rstrip("\n"), n))


if "jobs" in d:  # GitHub Actions
    env = dict(d.get("env") or {})
    jobs = [j for j in d["jobs"].values() if any("run" in s for s in j.get("steps", []))]
    if len(jobs) != 1:
        sys.exit("ci-templates: %s: %d jobs run shell steps, expected one" % (path, len(jobs)))
    job = jobs[0]
    env.update(job.get("env") or {})
    for k, v in env.items():
        out.append("export %s=%s" % (k, shlex.quote(str(v))))
    for s in job["steps"]:
        if "run" in s:
            step(s.get("name", s["run"].splitlines()[0]), s["run"])
else:  # GitLab CI
    for k, v in (d.get("variables") or {}).items():
        out.append('export %s="%s"' % (k, str(v).replace('"', '\\"')))  # GitLab expands $VARS in them
    job = d["pages"]
    step("pages", "\n".join(list(job.get("before_script", [])) + list(job["script"])))
print("\n".join(out))
PY
)

if [ "$print" = 1 ]; then
	printf '%s\n' "$steps"
	exit 0
fi
cd "$dir"
printf '%s\n' "$steps" | sh
