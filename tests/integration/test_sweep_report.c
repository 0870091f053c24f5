/*
 * DIR/report.html, opened for real: headless Chromium (driven over the
 * DevTools pipe by report_browser.py) loads a finished sweep's page from
 * disk, counts its rows, sorts a column by clicking it, checks that every
 * poster and video loaded, that nothing went to the console or the network;
 * and grid values, a summary and a log crafted as HTML and JavaScript show
 * as text.  The page's screenshot is kept in the test's directory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "sweep_util.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\""
#define BROWSER "python3 '" SRCDIR "/tests/integration/report_browser.py'"

static const char *tmp;

static void setup(void) { tmp = tc_tmpdir(); }

static void teardown(void) { tc_cleanup(); }

TestSuite(sweep_report, .init = setup, .fini = teardown, .timeout = 300);

/* report_browser.py on a page: exit status, its output in browser.txt. */
static void browse(const char *page, int points, const char *shot)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), BROWSER " '%s' %d '%s' >browser.txt 2>&1", page, points, shot);
	int st = tc_sh("%s", cmd);
	char *out = text("browser.txt");
	cr_assert_eq(st, 0, "%s in Chromium: exit %d\n%s", page, st, out);
	free(out);
	cr_log_info("report screenshot: %s/%s", tmp, shot);
	fprintf(stderr, "report screenshot: %s/%s\n", tmp, shot);
}

/*
 * The page as HTML, without a browser: every point a row of the points
 * table (readable without JavaScript), a Content-Security-Policy with no
 * network source and scripts by hash only (each inline script's hash is in
 * it), no inline handler, no javascript: URL, and the crafted strings shown
 * as text.
 */
static void check_html(const char *page, int points, const char *must_show)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		"python3 - '%s' %d >py.txt 2>&1 <<'EOF'\n"
		"import base64, hashlib, html.parser, re, sys\n"
		"page, points = sys.argv[1], int(sys.argv[2])\n"
		"doc = open(page, encoding='utf-8').read()\n"
		"class P(html.parser.HTMLParser):\n"
		"    def __init__(s):\n"
		"        super().__init__(); s.stack = []; s.rows = 0; s.scripts = []; s.csp = None; s.bad = []\n"
		"        s.text = []; s.in_script = False\n"
		"    def handle_starttag(s, tag, attrs):\n"
		"        a = dict(attrs)\n"
		"        for k, v in attrs:\n"
		"            if k.startswith('on'): s.bad.append('handler %%s on <%%s>' %% (k, tag))\n"
		"            if k in ('href', 'src', 'poster', 'action') and re.match(r'\\s*javascript:', v or '', re.I):\n"
		"                s.bad.append('javascript: URL')\n"
		"            if k in ('src', 'poster') and re.match(r'\\s*[a-z]+://', v or '', re.I): s.bad.append('remote ' + v)\n"
		"        if tag == 'meta' and a.get('http-equiv') == 'Content-Security-Policy': s.csp = a['content']\n"
		"        if tag == 'table': s.stack.append(a.get('id'))\n"
		"        if tag == 'tr' and s.stack and s.stack[-1] == 'points': s.rows += 1\n"
		"        s.in_script = tag == 'script'\n"
		"        if tag == 'script' and a: s.bad.append('a script with attributes %%s' %% a)\n"
		"    def handle_endtag(s, tag):\n"
		"        if tag == 'table': s.stack.pop()\n"
		"        if tag == 'script': s.in_script = False\n"
		"    def handle_data(s, d):\n"
		"        if s.in_script: s.scripts.append(d)\n"
		"        else: s.text.append(d)\n"
		"p = P(); p.convert_charrefs = True; p.feed(doc)\n"
		"assert not p.bad, p.bad\n"
		"assert p.rows == points + 1, 'points table: %%d rows with the header, want %%d' %% (p.rows, points + 1)\n"
		"csp = p.csp or ''\n"
		"d = {x.split()[0]: x.split()[1:] for x in csp.split(';') if x.strip()}\n"
		"assert d.get('default-src') == [\"'none'\"], csp\n"
		"assert not any('unsafe' in v or v in ('*', 'http:', 'https:') for v in d.get('script-src', [])), csp\n"
		"for v in sum(d.values(), []):\n"
		"    assert not re.match(r'(https?|wss?|ftp):|\\*', v), 'a network source in the CSP: ' + v\n"
		"for sc in p.scripts:\n"
		"    h = \"'sha256-\" + base64.b64encode(hashlib.sha256(sc.encode()).digest()).decode() + \"'\"\n"
		"    assert h in d['script-src'], 'an inline script not in the CSP'\n"
		"assert len(p.scripts) == 3, len(p.scripts)\n"
		"text = ''.join(p.text)\n"
		"for want in %s:\n"
		"    assert want in text, 'not shown as text: ' + want\n"
		"EOF",
		page, points, must_show);
	int st = tc_sh("%s", cmd);
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "%s: %s", page, py);
	free(py);
}

Test(sweep_report, a_hostile_sweep_shows_its_values_as_text)
{
	/* three values of a free-text option that try to be HTML and JavaScript,
	 * two seeds; trajectories give each run a poster frame */
	expect_status(sh(SWEEP " --out h --with-trajectory --grid 'seed=1,2' --grid "
	                 "'preset=<script>window.pwned=1</script>,\"><img src=x onerror=window.pwned=2>,"
	                 "javascript:window.pwned=3' --frames 5 --boids 20 --size 160x90 --threads 1 -- --no-render"),
	              0, "hostile sweep");
	cr_assert_eq(access("h/report.html", R_OK), 0, "the sweep wrote no report");
	/* a summary's host and a parameter crafted, and a run whose log is HTML */
	int st = tc_sh("set -e; python3 - <<'EOF'\n"
	               "import glob, json, os\n"
	               "fs = sorted(glob.glob('h/runs/*.json'))\n"
	               "s = json.load(open(fs[0]))\n"
	               "s['host'] = '<script>window.pwned=4</script>'\n"
	               "s['parameters']['codec'] = '\"><img src=x onerror=window.pwned=5>'\n"
	               "json.dump(s, open(fs[0], 'w'))\n"
	               "os.unlink(fs[1])\n"
	               "open(fs[1][:-5] + '.log', 'w').write('boids: <script>window.pwned=6</script>\\n')\n"
	               "EOF");
	cr_assert_eq(st, 0);
	expect_status(sh(SWEEP " --collect --out h"), 1, "collect with a point that lost its summary");
	char *o = text("out.txt");
	cr_assert(strstr(o, "report: h/report.html"), "%s", o);
	free(o);
	check_html("h/report.html", 6,
	           "['<script>window.pwned=1</script>', '\"><img src=x onerror=window.pwned=2>', "
	           "'javascript:window.pwned=3', '<script>window.pwned=4</script>', "
	           "'\"><img src=x onerror=window.pwned=5>', 'boids: <script>window.pwned=6</script>']");
	expect_status(tc_sh("test $(grep -o '<img alt=\"last frame of ' h/report.html | wc -l) = 5"), 0,
	              "a poster for each of the 5 complete runs");
	browse("h/report.html", 6, "hostile.png");
}

Test(sweep_report, a_rendered_sweep_plays_in_chromium)
{
	expect_status(sh(SWEEP " --out v --grid 'align-weight=0,0.05' --grid 'seed=1,2' --frames 5 --boids 20 "
	                 "--size 160x90 --threads 1"), 0, "rendered sweep");
	check_html("v/report.html", 4, "['align-weight', 'seed=1']");
	cr_assert_eq(tc_count_files("v/posters"), 4);
	/* a poster for every run, the video beside it, and a chart per metric */
	expect_status(tc_sh("test $(grep -o '<video ' v/report.html | wc -l) = 4 && "
	                    "test $(grep -o 'src=\"data:image/svg+xml;base64,' v/report.html | wc -l) = 6"),
	              0, "videos and charts in the page");
	browse("v/report.html", 4, "rendered.png");
	/* the page is made again by sweep-report, and never over its inputs */
	expect_status(sh("'" SRCDIR "/scripts/sweep-report' -o v/table.csv v"), 2, "-o the table");
	expect_status(sh("'" SRCDIR "/scripts/sweep-report' -o again.html v"), 0, "sweep-report");
	browse("again.html", 4, "again.png");
}

/* A study's size: 500 cheap points (20 align-weights x 25 seeds of one
 * --no-render frame); the page opens with every point a row, sorts, and
 * stays quiet in the console. */
Test(sweep_report, a_sweep_of_500_points_opens_with_every_row)
{
	expect_status(sh(SWEEP " --out big -j 2 --grid \"align-weight=$(seq -s, 1 20)\" "
	                 "--grid \"seed=$(seq -s, 1 25)\" --frames 1 --boids 20 --threads 1 -- --no-render"),
	              0, "500-point sweep");
	char *o = text("out.txt");
	cr_assert(strstr(o, "500 of 500 points complete"), "%s", o);
	free(o);
	check_html("big/report.html", 500, "['align-weight=20,seed=25', 'align-weight=1,seed=1']");
	browse("big/report.html", 500, "big.png");
}
