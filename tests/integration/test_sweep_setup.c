/*
 * scripts/sweep's set-up at scale: a 10,000-point grid (--slurm
 * --no-submit) gets every point's config and grid line from one boids
 * --check-configs process.  Checked independently: each config holds its
 * own point's values (all 10,000, read back in Python), a sample reads
 * back through boids --print-config to itself, and a point run from its
 * config (--task) leaves a summary whose options hash is the grid's.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common.h"
#include "sweep_util.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\""

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(sweep_setup, .init = setup, .fini = teardown, .timeout = 600);

Test(sweep_setup, ten_thousand_points_each_get_their_config)
{
	expect_status(sh(SWEEP " --out s --slurm --no-submit --grid \"seed=$(seq -s, 1 100)\" "
	                 "--grid \"align-weight=$(seq -s, 0 0.001 0.099)\" -- -f 1 -n 20 --no-render"),
	              0, "10,000-point set-up");
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import json, os\n"
		"pts = [json.loads(l) for l in open('s/grid.jsonl')]\n"
		"assert [p['i'] for p in pts] == list(range(10000)), 'grid lines'\n"
		"assert len(os.listdir('s/cfg')) == 10000, len(os.listdir('s/cfg'))\n"
		"seen = set()\n"
		"for p in pts:\n"
		"    cfg = dict(l.split(' = ', 1) for l in open(f\"s/cfg/{p['i']}.cfg\").read().splitlines()\n"
		"               if ' = ' in l and not l.startswith('#'))\n"
		"    for k, v in p['values']:\n"
		"        assert float(cfg[k]) == float(v), (p, k, cfg[k])\n"
		"    assert cfg['summary'] == f\"runs/{p['name']}.json\", p\n"
		"    assert cfg['frames'] == '1' and cfg['no-render'] == 'yes', p\n"
		"    seen.add(tuple(tuple(kv) for kv in p['values']))\n"
		"assert len(seen) == 10000, 'points repeat'\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "%s", py);
	free(py);
	for (int i = 0; i < 10000; i += 3333) {
		/* in the sweep's directory, as the runs are: the checks look for runs/ */
		expect_status(tc_sh("cd s && \"$BOIDS_BIN\" --config cfg/%d.cfg --print-config | cmp - cfg/%d.cfg", i, i),
		              0, "a config does not read back to itself");
	}
	expect_status(sh(SWEEP " --out s --task 9999"), 0, "the last point");
	expect_status(tc_sh("python3 -c \"import json; p = json.loads(open('s/grid.jsonl').readlines()[9999]); "
	                    "s = json.load(open('s/runs/' + p['name'] + '.json')); "
	                    "assert s['options_hash'] == p['hash'], (s['options_hash'], p['hash'])\""),
	              0, "the run's options hash is not the grid's");
}
