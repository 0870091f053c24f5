/*
 * Trajectory formats: HDF5 read back by an independent reader (h5py,
 * h5dump) against the CSV of the same run, gzip and zstd CSVs read back by
 * their own command-line tools, --init from every format continuing a run
 * exactly, the stride, and bad files and options (exit 2, one line, nothing
 * written).  And the CSV's number formatter against printf itself.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "common.h"
#include "fmtnum.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(trajfmt, .init = setup, .fini = teardown, .timeout = 120);

/* Writes a Python script to a file and runs it with args; returns its exit status (its output in out.txt). */
static int python_args(const char *script, const char *args)
{
	FILE *f = fopen("check.py", "w");
	cr_assert_not_null(f);
	fputs(script, f);
	fclose(f);
	return tc_sh("'%s' check.py %s > out.txt 2>&1", tc_python(), args);
}

static int python(const char *script)
{
	return python_args(script, "");
}

static char *out_txt(void)
{
	char *s = tc_slurp("out.txt", NULL);
	return s ? s : strdup("(no output)");
}

/* ------------------------------------------------------- the CSV's numbers */

static uint64_t rnd_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A double of one of several kinds: any bit pattern, positions, velocities, ties, round numbers. */
static double some_double(long i)
{
	uint64_t r = rnd();
	double v;

	switch (i % 5) {
	case 0:
		memcpy(&v, &r, sizeof(v)); /* NaN, inf, subnormals too */
		return v;
	case 1:
		return (double)(r >> 11) / 9007199254740992.0 * 16384;
	case 2:
		return ((double)(r >> 11) / 9007199254740992.0 - 0.5) * 10;
	case 3: /* few binary digits after the point: exact 18-digit ties */
		v = ldexp((double)(r >> (11 + rnd() % 40)), -(int)(rnd() % 12));
		return r & 1 ? -v : v;
	default: /* every binary exponent around the fast path's range, some rounded to 1e-3 */
		v = ldexp((double)(r >> 11), (int)(rnd() % 90) - 83);
		return r & 2 ? nearbyint(v * 1000) / 1000 : v;
	}
}

Test(trajfmt, fmtnum_writes_what_printf_writes)
{
	static const double edge[] = { 0.0, -0.0, 1e-6, 9.9999999999999995e-07, 1e16, 9999999999999998.0,
	                               0.1, 0.5, 1, 10, 99999999999999999.0, 1e-5, 1e-4, 0.001,
	                               9.9999999999999991e-05, 123456789012345.67, 5e-324, 1e300,
	                               INFINITY, -INFINITY, NAN, 640, 359.99999999999994, 1e9 };
	char a[FMTNUM_G17_MAX], b[64];
	long bad = 0;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		fmtnum_g17(a, edge[i]);
		snprintf(b, sizeof(b), "%.17g", edge[i]);
		cr_expect_str_eq(a, b);
	}
	for (long i = 0; i < 300000; i++) { /* 300,000 here; 100 million once, by hand */
		double v = some_double(i);
		size_t n = fmtnum_g17(a, v);
		snprintf(b, sizeof(b), "%.17g", v);
		if (strcmp(a, b) != 0 || n != strlen(b))
			cr_expect(bad++ > 5, "%s where printf writes %s", a, b);
	}
	cr_assert_eq(bad, 0, "%ld of 300,000 differ", bad);
	unsigned long ul[] = { 0, 7, 10, 99, 100, 4294967296UL, 18446744073709551615UL };
	for (size_t i = 0; i < sizeof(ul) / sizeof(ul[0]); i++) {
		fmtnum_ulong(a, ul[i]);
		snprintf(b, sizeof(b), "%lu", ul[i]);
		cr_expect_str_eq(a, b);
	}
}

/* ----------------------------------------------------------------- HDF5 */

/* Compares t.h5 with t.csv (written with --trajectory-predator) value for value, in h5py. */
static const char h5_vs_csv[] =
	"import csv, sys, h5py, numpy\n"
	"single = len(sys.argv) > 1\n"
	"f = h5py.File('t.h5', 'r')\n"
	"pos, vel, fr, pred = f['positions'], f['velocities'], f['frame'][:], f['predator'][:]\n"
	"rows = list(csv.reader(open('t.csv')))\n"
	"head = rows[0]; rows = rows[1:]\n"
	"dims = 3 if 'z' in head else 2\n"
	"F, n, d = pos.shape\n"
	"assert d == dims and vel.shape == pos.shape, (pos.shape, vel.shape)\n"
	"assert F * n == len(rows), (F, n, len(rows))\n"
	"assert pos.dtype == (numpy.float32 if single else numpy.float64), pos.dtype\n"
	"P, V = pos[:], vel[:]\n"
	"col = {name: k for k, name in enumerate(head)}\n"
	"conv = numpy.float32 if single else float\n"
	"for r in rows:\n"
	"    k = list(fr).index(int(r[0])); i = int(r[1])\n"
	"    want = [conv(float(r[col[c]])) for c in ('x', 'y', 'z')[:d]]\n"
	"    wantv = [conv(float(r[col[c]])) for c in ('vx', 'vy', 'vz')[:d]]\n"
	"    assert list(P[k, i]) == want, (r, P[k, i])\n"
	"    assert list(V[k, i]) == wantv, (r, V[k, i])\n"
	"    assert pred[i] == int(r[col['predator']]), (r, pred[i])\n"
	"a = f.attrs\n"
	"assert a['status'] == 'complete' and a['frames'] == F, dict(a)\n"
	"assert a['dims'] == d and a['boids'] == n and a['predators'] == pred.sum()\n"
	"assert a['position_units'] == 'px' and a['velocity_units'] == 'px per step'\n"
	"assert a['model'] == 'harden' and a['fps'] == 30 and list(a['field'][:2]) == [320, 180]\n"
	"assert 'boids = %d' % n in a['config'] and 'seed = 7' in a['config'], a['config']\n"
	"s = f['settings'].attrs\n"
	"assert s['boids'] == n and s['seed'] == 7 and s['max-speed'] == 5.0 and s['edges'] == 'bounce'\n"
	"assert s['no-render'] == 1 and s['trajectory-every'] == int(a['every'])\n"
	"assert isinstance(a['boids_version'], str) and a['boids_version'][0].isdigit()\n"
	"print('ok', F, n, d)\n";

Test(trajfmt, hdf5_read_by_h5py_equals_the_csv_value_for_value)
{
	const char *run = "--no-render -q -n 60 --predators 4 -s 320x180 --seed 7 -f 12";
	cr_assert_eq(tc_boids("%s --trajectory t.h5", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory t.csv --trajectory-predator", run), 0, "%s", tc_stderr());
	cr_assert_eq(python(h5_vs_csv), 0, "%s", out_txt());
	/* the same run, the same bytes: no clock in the file */
	cr_assert_eq(rename("t.h5", "first.h5"), 0);
	cr_assert_eq(tc_boids("%s --trajectory t.h5", run), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("t.h5", "first.h5"), "two runs wrote different HDF5 files");
	/* h5dump, HDF5's own tool, reads it too */
	cr_assert_eq(tc_sh("h5dump -d /frame t.h5 > dump.txt 2>&1"), 0);
	char *dump = tc_slurp("dump.txt", NULL);
	cr_assert(strstr(dump, "(0): 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,"), "%s", dump);
	free(dump);
}

Test(trajfmt, hdf5_3d_file_and_single_precision)
{
	const char *run = "--no-render -q -n 40 -s 320x180 --seed 7 -f 6 --dims 3 --depth 90";
	cr_assert_eq(tc_boids("%s --trajectory t.h5 --trajectory-precision single --trajectory-compress 4",
	                      run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory t.csv --trajectory-predator", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("head -1 t.csv | grep -qx 'frame,id,x,y,vx,vy,z,vz,predator'"), 0);
	cr_assert_eq(python_args(h5_vs_csv, "single"), 0, "%s", out_txt());
	cr_assert_eq(python("import h5py\n"
	                    "f = h5py.File('t.h5', 'r')\n"
	                    "p = f['positions']\n"
	                    "assert p.compression == 'gzip' and p.compression_opts == 4 and p.shuffle, p\n"
	                    "assert p.chunks == (1, 40, 3), p.chunks\n"
	                    "assert list(f.attrs['field']) == [320, 180, 90], f.attrs['field']\n"),
	             0, "%s", out_txt());
}

/* ------------------------------------------------------ compressed CSV */

Test(trajfmt, compressed_csv_is_read_by_gzip_and_zstd)
{
	const char *run = "--no-render -q -n 50 -f 8 --trajectory-predator";
	cr_assert_eq(tc_boids("%s --trajectory t.csv", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory t.csv.gz", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory t.csv.zst --trajectory-compress 12", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory fast.csv.gz --trajectory-compress 1", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("gzip -dc t.csv.gz > gz.csv && zstd -qdc t.csv.zst > zst.csv && "
	                   "gzip -dc fast.csv.gz > fast.csv"), 0);
	cr_assert(tc_same_file("t.csv", "gz.csv"));
	cr_assert(tc_same_file("t.csv", "zst.csv"));
	cr_assert(tc_same_file("t.csv", "fast.csv"));
	struct stat a, b, c;
	cr_assert(stat("t.csv", &a) == 0 && stat("t.csv.gz", &b) == 0 && stat("fast.csv.gz", &c) == 0);
	cr_assert_lt(b.st_size, a.st_size / 2, "gzip did not compress");
	cr_assert_lt(b.st_size, c.st_size, "level 6 is no smaller than level 1");
}

/* ------------------------------------------------------------------ stride */

Test(trajfmt, every_kth_frame_in_csv_and_hdf5)
{
	const char *run = "--no-render -q -n 30 -f 11";
	cr_assert_eq(tc_boids("%s --trajectory all.csv", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory t.csv --trajectory-every 4", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --trajectory t.h5 --trajectory-every 4", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("awk -F, 'NR == 1 || $1 %% 4 == 0' all.csv > want.csv"), 0);
	cr_assert(tc_same_file("t.csv", "want.csv"), "the stride's rows are not the full run's");
	cr_assert_eq(python("import h5py, csv\n"
	                    "f = h5py.File('t.h5', 'r')\n"
	                    "assert list(f['frame'][:]) == [0, 4, 8], f['frame'][:]\n"
	                    "assert f.attrs['every'] == 4 and f['positions'].shape == (3, 30, 2)\n"
	                    "rows = [r for r in csv.DictReader(open('all.csv')) if r['frame'] == '8']\n"
	                    "assert [float(r['vx']) for r in rows] == list(f['velocities'][2, :, 0])\n"),
	             0, "%s", out_txt());
}

/* ---------------------------------------------------------- --init */

/* rest.csv's rows without their frame column equal all.csv's from frame `from` on. */
static void expect_continuation(const char *name, int from)
{
	cr_assert_eq(tc_sh("tail -n +2 rest.csv | cut -d, -f2- > a.txt && "
	                   "awk -F, 'NR > 1 && $1 >= %d' all.csv | cut -d, -f2- > b.txt", from), 0);
	cr_assert(tc_same_file("a.txt", "b.txt"), "--init %s does not continue the run exactly", name);
}

Test(trajfmt, init_from_h5_gz_and_zst_continues_exactly)
{
	const char *run = "--no-render -q -n 80 --seed 3";
	const char *names[] = { "half.h5", "half.csv.gz", "half.csv.zst" };

	cr_assert_eq(tc_boids("%s -f 25 --trajectory all.csv", run), 0, "%s", tc_stderr());
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(tc_boids("%s -f 11 --trajectory %s", run, names[i]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("--no-render -q -f 15 --init %s --trajectory rest.csv -y", names[i]), 0,
		             "%s", tc_stderr());
		expect_continuation(names[i], 10);
		/* --init-frame: an earlier frame of the same file */
		cr_assert_eq(tc_boids("--no-render -q -f 21 --init %s --init-frame 4 --trajectory rest.csv -y",
		                      names[i]), 0, "%s", tc_stderr());
		expect_continuation(names[i], 4);
	}
	/* a plain CSV's --init-frame, and the predator count an HDF5 file carries */
	cr_assert_eq(tc_boids("--no-render -q -f 22 --init all.csv --init-frame 3 --trajectory rest.csv -y"), 0);
	expect_continuation("all.csv", 3);
	cr_assert_eq(tc_boids("--no-render -q -f 2 -n 9 --predators 5 --trajectory p.h5"), 0);
	cr_assert_eq(tc_boids("--init p.h5 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\npredators = 5\n") && strstr(tc_stdout(), "\nboids = 9\n"),
	          "%s", tc_stdout());
	/* a CSV's predator column too, in any place the header puts it; --predators still wins */
	cr_assert_eq(tc_sh("printf 'predator,x,y,vx,vy\\n1,1,2,0,1\\n1,3,4,1,0\\n0,5,6,1,1\\n' > p.csv"), 0);
	cr_assert_eq(tc_boids("--init p.csv --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\npredators = 2\n") && strstr(tc_stdout(), "\nboids = 3\n"),
	          "%s", tc_stdout());
	cr_assert_eq(tc_boids("--init p.csv --predators 1 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\npredators = 1\n"), "%s", tc_stdout());
	cr_assert_eq(tc_sh("printf 'x,y,vx,vy,predator\\n1,2,0,1,0\\n3,4,1,0,1\\n' > q.csv"), 0);
	cr_assert_eq(tc_boids("--init q.csv --print-config"), 2);
	cr_assert(strstr(tc_stderr(), "'q.csv' line 3: predator 1 after a boid that is not one"), "%s", tc_stderr());
}

/*
 * An HDF5 file knows the field its flock flew in: --init goes on there (as
 * if given as --field; -s is the picture), exactly where the first run
 * would have gone; --field and --depth given still win, a CSV (which holds
 * no field) leaves the field to -s, and a field --field could not take is
 * refused.
 */
Test(trajfmt, init_from_h5_goes_on_in_its_field)
{
	const char *run = "--no-render -q -n 120 --seed 5 --field 3000x2000";

	cr_assert_eq(tc_boids("%s -f 21 --trajectory all.csv", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s -f 11 --trajectory half.h5", run), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("--no-render -q -f 11 --init half.h5 --trajectory rest.csv"), 0, "%s", tc_stderr());
	expect_continuation("half.h5 (no --field)", 10);
	cr_assert_eq(tc_boids("--init half.h5 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 3000x2000\n") && strstr(tc_stdout(), "\nsize = 640x360\n"),
	          "%s", tc_stdout());
	cr_assert_eq(tc_boids("--init half.h5 --field 640x360 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 640x360\n"), "--field given lost to the file's: %s", tc_stdout());
	cr_assert_eq(tc_boids("--init all.csv --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = \n"), "a CSV has no field to give: %s", tc_stdout());

	/* a box: its depth too, unless --depth is given */
	cr_assert_eq(tc_boids("--no-render -q --dims 3 -n 40 --field 900x800x700 -f 3 --trajectory box.h5"), 0,
	             "%s", tc_stderr());
	cr_assert_eq(tc_boids("--init box.h5 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 900x800x700\n") && strstr(tc_stdout(), "\ndims = 3\n"),
	          "%s", tc_stdout());
	cr_assert_eq(tc_boids("--init box.h5 --depth 100 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 900x800\n") && strstr(tc_stdout(), "\ndepth = 100\n"),
	          "%s", tc_stdout());

	/* a field attribute --field would refuse: refused, naming the file; one it cannot read: -s */
	cr_assert_eq(python("import h5py\n"
	                    "for name, field in (('half-px.h5', [0.5, 2.0]), ('huge.h5', [3e9, 2.0]), ('neg.h5', [-5, 2]), "
	                    "('text.h5', 'abc'), ('vicsek.h5', [31.6, 31.6])):\n"
	                    "    f = h5py.File(name, 'w')\n"
	                    "    f['positions'] = [[[1.0, 2.0]]]\n    f['velocities'] = [[[0.0, 1.0]]]\n"
	                    "    f['frame'] = [0]\n    f.attrs['field'] = field\n"), 0, "%s", out_txt());
	int before = tc_count_files(".");
	cr_assert_eq(tc_boids("--no-render -f 1 --init half-px.h5 --trajectory o.csv"), 2);
	cr_assert(strstr(tc_stderr(), "--init: 'half-px.h5' was written in a field of 0.5 px a side"),
	          "%s", tc_stderr());
	cr_assert_eq(tc_boids("--no-render -f 1 --init huge.h5 --trajectory o.csv"), 2);
	cr_assert(strstr(tc_stderr(), "'huge.h5' was written in a field of 3e+09 px"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--no-render -f 1 --init neg.h5 --trajectory o.csv"), 2);
	cr_assert(strstr(tc_stderr(), "'neg.h5' was written in a field of -5 px"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), before, "a refused --init left a file");
	cr_assert_eq(tc_boids("--init text.h5 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = \n"), "%s", tc_stdout());
	/* a field need not be whole pixels (Vicsek's L = 31.6): it goes on in it */
	cr_assert_eq(tc_boids("--init vicsek.h5 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 31.6x31.6\n"), "%s", tc_stdout());
}

/* -------------------------------------------------- bad files, bad options */

/* Expects exit 2 with one line holding `want`, no HDF5 error stack, and no new file. */
static void expect_refused(const char *args, const char *want)
{
	int before = tc_count_files(".");
	int st = tc_boids("%s", args);
	const char *err = tc_stderr();

	cr_expect_eq(st, 2, "%s: exit %d: %s", args, st, err);
	cr_expect(strstr(err, want) != NULL, "%s: expected '%s' in: %s", args, want, err);
	cr_expect(strncmp(err, "boids: ", 7) == 0 && strchr(err, '\n') == err + strlen(err) - 1,
	          "%s: not one line: %s", args, err);
	cr_expect_eq(tc_count_files("."), before, "%s: left a file", args);
}

Test(trajfmt, bad_files_and_options_exit_2_naming_them)
{
	cr_assert_eq(tc_boids("--no-render -q -n 20 -f 3 --trajectory good.h5"), 0);
	cr_assert_eq(tc_boids("--no-render -q -n 20 -f 3 --trajectory good.csv.gz"), 0);
	cr_assert_eq(tc_boids("--no-render -q -n 20 -f 3 --trajectory good.csv.zst"), 0);
	cr_assert_eq(tc_sh("echo 'frame,id,x,y,vx,vy' > text.h5 && head -c 1000 good.h5 > cut.h5 && "
	                   "head -c 200 good.csv.gz > cut.csv.gz && head -c 100 good.csv.zst > cut.csv.zst && "
	                   "cp good.csv.zst zst.csv.gz && mkfifo fifo.h5"), 0);
	cr_assert_eq(python("import h5py\nh5py.File('other.h5', 'w').create_dataset('x', data=[1, 2])\n"
	                    "f = h5py.File('nan.h5', 'w')\n"
	                    "f['positions'] = [[[1.0, float('nan')]]]\nf['velocities'] = [[[0.0, 0.0]]]\n"
	                    "f['frame'] = [0]\n"
	                    "f = h5py.File('nanv.h5', 'w')\n" /* the positions are read before the velocities fail */
	                    "f['positions'] = [[[1.0, 2.0]]]\nf['velocities'] = [[[0.0, float('inf')]]]\n"
	                    "f['frame'] = [0]\n"), 0, "%s", out_txt());
	expect_refused("--no-render -f 1 --init text.h5 --trajectory o.csv", "--init: 'text.h5': not an HDF5 file");
	expect_refused("--no-render -f 1 --init cut.h5 --trajectory o.csv", "'cut.h5'");
	expect_refused("--no-render -f 1 --init other.h5 --trajectory o.csv", "'other.h5': not a boids trajectory");
	expect_refused("--no-render -f 1 --init nan.h5 --trajectory o.csv", "positions[0][0][1] = nan is not a finite");
	expect_refused("--no-render -f 1 --init nanv.h5 --trajectory o.csv", "velocities[0][0][1] = inf is not a finite");
	expect_refused("--no-render -f 1 --init good.h5 --init-frame 9 --trajectory o.csv", "no frame 9");
	expect_refused("--no-render -f 1 --init good.csv.zst --init-frame 9 --trajectory o.csv", "no frame 9");
	expect_refused("--no-render -f 1 --init cut.csv.gz --trajectory o.csv", "gzip data is damaged or cut short");
	expect_refused("--no-render -f 1 --init cut.csv.zst --trajectory o.csv", "zstd data is damaged or cut short");
	expect_refused("--no-render -f 1 --init zst.csv.gz --trajectory o.csv", "'zst.csv.gz' line 1: the gzip data");
	expect_refused("--no-render -f 1 --trajectory o.csv --trajectory-precision single", "--trajectory-precision");
	expect_refused("--no-render -f 1 --trajectory o.csv --trajectory-compress 3", "'o.csv' is not compressed");
	expect_refused("--no-render -f 1 --trajectory o.csv.gz --trajectory-compress 12",
	               "12 is out of range for gzip CSV (expected a whole number from 0 to 9)");
	expect_refused("--no-render -f 1 --trajectory o.h5 --trajectory-compress 10", "from 0 to 9)");
	expect_refused("--no-render -f 1 --trajectory o.csv --trajectory-every 0", "--trajectory-every");
	expect_refused("--no-render -f 1 --trajectory-every 2", "there is no --trajectory");
	expect_refused("--no-render -f 1 --init-frame 2 --trajectory o.csv", "there is no --init");
	expect_refused("--no-render -f 1 --trajectory fifo.h5 -y", "HDF5 needs one");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

/*
 * The trajectory's options (and --init-frame) without a trajectory (--init)
 * are refused whatever their value, their defaults too; a config file that
 * --print-config wrote (every key, `trajectory =` empty) reads back, and a
 * command line that empties the file's trajectory keeps its options inert.
 */
Test(trajfmt, trajectory_options_without_a_trajectory_are_refused_whatever_their_value)
{
	static const char *const given[] = { "--trajectory-every 1", "--trajectory-every 2",
		"--trajectory-compress auto", "--trajectory-precision double", "--trajectory-predator" };
	for (size_t i = 0; i < sizeof given / sizeof *given; i++)
		expect_refused(given[i], "there is no --trajectory to write");
	expect_refused("--init-frame auto", "there is no --init to start from");
	write_file("hand.cfg", "trajectory-every = 1\n");
	expect_refused("--config hand.cfg", "--trajectory-every: there is no --trajectory to write");
	cr_assert_eq(tc_boids("-f 1 --no-render --print-config"), 0, "%s", tc_stderr());
	write_file("all.cfg", tc_stdout());
	cr_expect_eq(tc_boids("--config all.cfg --print-config"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-f 1 --no-render --trajectory t.csv --trajectory-every 3 --print-config"), 0);
	write_file("t.cfg", tc_stdout());
	cr_expect_eq(tc_boids("--config t.cfg --trajectory '' --print-config"), 0, "%s", tc_stderr());
}

/*
 * The frame rate reaches the HDF5 file as the rate it is: its root
 * attribute fps is num/den (NTSC 30000/1001, not the numerator alone), as
 * h5py reads it, for a name, a decimal, a fraction and a whole rate; the
 * settings' fps keeps the fraction as --print-config writes it.
 */
Test(trajfmt, hdf5_fps_is_the_rate_as_given)
{
	static const struct { const char *typed, *setting; double num, den; } rates[] = {
		{ "ntsc", "30000/1001", 30000, 1001 }, { "29.97", "2997/100", 2997, 100 },
		{ "30000/1001", "30000/1001", 30000, 1001 }, { "25", "25", 25, 1 },
	};
	for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
		cr_assert_eq(tc_boids("--no-render -q -n 5 -f 2 --fps %s --trajectory r%zu.h5", rates[i].typed, i), 0,
		             "%s", tc_stderr());
		char args[64];
		snprintf(args, sizeof args, "r%zu.h5", i);
		cr_assert_eq(python_args("import sys, h5py\n"
		                         "f = h5py.File(sys.argv[1], 'r')\n"
		                         "s = f['settings'].attrs['fps']\n"
		                         "print(repr(float(f.attrs['fps'])), s.decode() if isinstance(s, bytes) else s)\n",
		                         args), 0, "%s", out_txt());
		char *out = out_txt();
		double got = strtod(out, NULL);
		cr_expect_eq(got, rates[i].num / rates[i].den, "--fps %s: fps = %s", rates[i].typed, out);
		cr_expect(strstr(out, rates[i].setting) != NULL, "--fps %s: %s", rates[i].typed, out);
		free(out);
	}
}

/*
 * The format follows the name, in any case, and any other name is refused
 * (it used to write plain CSV under it, exit 0): exit 2 naming the formats
 * and the nearest ending, nothing written; for --init too.  Standard output,
 * a device and a FIFO are CSV streams.
 */
Test(trajfmt, a_name_of_no_format_is_refused_with_the_formats_and_the_nearest)
{
	static const char *const bad[][2] = {
		{ "t.csv.bz2", " (did you mean .csv.gz?)" }, { "t.txt", "" }, { "T.CVS", " (did you mean .csv?)" },
		{ "run/t", "" }, { "t.csv.gzip", " (did you mean .csv.gz or .csv.zst?)" },
		{ "t.hd5", " (did you mean .h5, .hdf5 or .he5?)" },
	};
	cr_assert_eq(tc_sh("mkdir run && mkfifo fifo"), 0);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char want[256];
		snprintf(want, sizeof want, "--trajectory: '%s' names no trajectory format%s: end it with .csv, .csv.gz, "
		         ".csv.zst or .h5 (.hdf5, .he5), in any case", bad[i][0], bad[i][1]);
		char args[128];
		snprintf(args, sizeof args, "--no-render -f 1 --trajectory %s", bad[i][0]);
		expect_refused(args, want);
	}
	cr_assert_eq(tc_boids("--no-render -q -n 5 -f 2 --trajectory good.csv"), 0);
	cr_assert_eq(tc_sh("cp good.csv good.dat"), 0);
	expect_refused("--no-render -f 1 --init good.dat", "--init: 'good.dat' names no trajectory format: end it with");
	/* any case; a device, standard output */
	static const char *const ok[] = { "A.Csv", "B.CSV.GZ", "c.cSv.ZsT", "D.H5", "e.HDF5", "/dev/null", "-" };
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		cr_expect_eq(tc_boids("--no-render -q -n 5 -f 2 --trajectory %s -y", ok[i]), 0, "%s: %s", ok[i],
		             tc_stderr());
	cr_expect_eq(tc_boids("--no-render -q -n 5 -f 2 --init B.CSV.GZ"), 0, "%s", tc_stderr());
	cr_expect_eq(tc_boids("--no-render -q -n 5 -f 2 --init D.H5"), 0, "%s", tc_stderr());
}

/* The --list-options ranges of --trajectory-compress, as {ending, min, max, default}. */
struct level_range {
	char ending[16];
	int min, max, dflt;
};

static int listed_ranges(struct level_range *r, int most)
{
	cr_assert_eq(tc_boids("--list-options"), 0);
	const char *o = strstr(tc_stdout(), "{\"name\": \"trajectory-compress\"");
	cr_assert_not_null(o, "no trajectory-compress in --list-options");
	const char *p = strstr(o, "\"ranges\": [");
	cr_assert(p && p < strchr(o, '\n'), "no ranges for --trajectory-compress");
	int n = 0;
	while (n < most && (p = strstr(p, "{\"depends_on\": \"trajectory\", \"ends_with\": \"")) &&
	       p < strchr(o, '\n')) {
		cr_assert_eq(sscanf(p, "{\"depends_on\": \"trajectory\", \"ends_with\": \"%15[^\"]\", \"min\": %d, "
		                    "\"max\": %d, \"default\": %d}", r[n].ending, &r[n].min, &r[n].max, &r[n].dflt), 4);
		n++;
		p++;
	}
	return n;
}

/*
 * --trajectory-compress's range is per format, as the man page, --help-all
 * and --list-options say (0 used to be taken for .csv.zst, documented
 * 1..19): each listed bound is accepted, one past it refused, the help
 * line states the same numbers; and the default is what "auto" writes.
 */
Test(trajfmt, compress_levels_are_listed_and_held_per_format)
{
	struct level_range r[8];
	int n = listed_ranges(r, 8);
	cr_assert_eq(n, 3, "--list-options lists %d ranges", n);
	const char *want[] = { ".csv.gz", ".csv.zst", ".h5" };
	cr_assert_eq(tc_boids("--help-all"), 0);
	char *help = strdup(tc_stdout()), *w = help;
	for (const char *c = help; *c; c++) /* the help as one line: wrapped lines joined */
		if (!(*c == ' ' || *c == '\n') || (w > help && w[-1] != ' '))
			*w++ = *c == '\n' ? ' ' : *c;
	*w = 0;
	char *man = tc_slurp(SRCDIR "/docs/boids.1", NULL);
	for (int i = 0; i < n; i++) {
		cr_expect_str_eq(r[i].ending, want[i]);
		for (int k = 0; k < 4; k++) {
			int level = k == 0 ? r[i].min : k == 1 ? r[i].max : k == 2 ? r[i].min - 1 : r[i].max + 1;
			int st = tc_boids("--no-render -q -n 5 -f 1 --trajectory t%s --trajectory-compress %d -y", r[i].ending,
			                  level);
			if (k < 2)
				cr_expect_eq(st, 0, "%s level %d: %s", r[i].ending, level, tc_stderr());
			else
				cr_expect(st == 2 && strstr(tc_stderr(), "--trajectory-compress: ") &&
				          strstr(tc_stderr(), "out of range"), "%s level %d: exit %d: %s", r[i].ending, level,
				          st, tc_stderr());
		}
		char stated[64]; /* the help line: ".csv.zst 1..19 (3)", HDF5's "0..9 (auto 0)" */
		snprintf(stated, sizeof stated, i == 2 ? "%s %d..%d (auto %d)" : "%s %d..%d (%d)", r[i].ending, r[i].min,
		         r[i].max, r[i].dflt);
		cr_expect(strstr(help, stated), "--help-all does not say '%s'", stated);
		snprintf(stated, sizeof stated, "%d to %d (auto: %d", r[i].min, r[i].max, r[i].dflt);
		cr_expect(strstr(man, stated), "the man page does not say '%s'", stated);
	}
	/* auto is the listed default: the same bytes as the default given */
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(tc_boids("--no-render -q -n 50 -f 3 --trajectory a%s", r[i].ending), 0);
		cr_assert_eq(tc_boids("--no-render -q -n 50 -f 3 --trajectory d%s --trajectory-compress %d", r[i].ending,
		                      r[i].dflt), 0);
		char a[256], d[256];
		snprintf(a, sizeof a, "a%s", r[i].ending);
		snprintf(d, sizeof d, "d%s", r[i].ending);
		cr_expect(tc_same_file(a, d), "%s: auto is not level %d", r[i].ending, r[i].dflt);
	}
	free(help);
	free(man);
}

/* frame.csv's rows (frame 0 of a one-frame run) without the frame column equal all.csv's frame k's. */
static void expect_frame(const char *name, const char *asked, int k)
{
	cr_assert_eq(tc_sh("tail -n +2 frame.csv | cut -d, -f2- > a.txt && "
	                   "awk -F, 'NR > 1 && $1 == %d' all.csv | cut -d, -f2- > b.txt", k), 0);
	cr_assert(tc_same_file("a.txt", "b.txt"), "--init %s --init-frame %s did not start from frame %d", name,
	          asked, k);
}

/*
 * --init-frame 0 is the file's first frame, in every format (an HDF5 file
 * gave its last: 0 was taken for "none"), 1 the second, auto the last:
 * each against the same run's plain CSV.
 */
Test(trajfmt, init_frame_0_is_the_first_frame_in_every_format)
{
	const char *run = "--no-render -q -n 20 --seed 9 -f 3";
	const char *names[] = { "t.h5", "t.csv.gz", "t.csv.zst", "t.csv" };
	cr_assert_eq(tc_boids("%s --trajectory all.csv", run), 0, "%s", tc_stderr());
	for (int i = 0; i < 4; i++) {
		if (i < 3)
			cr_assert_eq(tc_boids("%s --trajectory %s", run, names[i]), 0, "%s", tc_stderr());
		for (int k = 0; k <= 2; k++) {
			char frame[8];
			snprintf(frame, sizeof frame, "%d", k);
			cr_assert_eq(tc_boids("--no-render -q -f 1 --init %s --init-frame %s --trajectory frame.csv -y",
			                      i == 3 ? "all.csv" : names[i], k == 2 ? "auto" : frame), 0, "%s", tc_stderr());
			expect_frame(names[i], k == 2 ? "auto" : frame, k);
		}
	}
}

/* The bytes of a file; *len its size. */
static unsigned char *bytes_of(const char *path, size_t *len)
{
	unsigned char *b = (unsigned char *)tc_slurp(path, len);
	cr_assert_not_null(b, "no %s", path);
	return b;
}

/* zlib's gzip reader over b: the text, malloc'ed, or NULL when it is not whole gzip data. */
static char *gunzip(const unsigned char *b, size_t len, size_t *out)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	cr_assert_eq(inflateInit2(&z, 15 + 16), Z_OK);
	size_t cap = 1 << 20;
	char *text = malloc(cap);
	z.next_in = (unsigned char *)b;
	z.avail_in = (uInt)len;
	z.next_out = (unsigned char *)text;
	z.avail_out = (uInt)cap;
	int ret = inflate(&z, Z_FINISH);
	*out = z.total_out;
	inflateEnd(&z);
	if (ret != Z_STREAM_END) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * Upper- and mixed-case names are the formats they name: T.CSV.GZ is
 * gzip (it was written as plain text), its magic and CRC whole; T.CSV.ZST
 * a zstd frame with its content checksum (the flag in its header, and a
 * changed checksum byte makes libzstd refuse it); each decompressed is the
 * plain CSV of the same run.
 */
Test(trajfmt, gzip_and_zstd_in_any_case_carry_their_magic_and_checksum)
{
	const char *run = "--no-render -q -n 20 --seed 4 -f 3";
	size_t plain_len, len, n;
	cr_assert_eq(tc_boids("%s --trajectory plain.csv", run), 0, "%s", tc_stderr());
	char *plain = (char *)bytes_of("plain.csv", &plain_len);
	const char *gz[] = { "T.CSV.GZ", "t.Csv.gZ" }, *zst[] = { "T.CSV.ZST", "t.cSv.ZsT" };
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(tc_boids("%s --trajectory %s", run, gz[i]), 0, "%s", tc_stderr());
		unsigned char *b = bytes_of(gz[i], &len);
		cr_expect(len > 18 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8, "%s is not gzip data", gz[i]);
		char *text = gunzip(b, len, &n);
		cr_expect(text && n == plain_len && memcmp(text, plain, n) == 0, "%s is not the run's CSV", gz[i]);
		free(text);
		free(b);

		cr_assert_eq(tc_boids("%s --trajectory %s", run, zst[i]), 0, "%s", tc_stderr());
		b = bytes_of(zst[i], &len);
		cr_assert(len > 8 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd, "%s is not zstd", zst[i]);
		cr_expect(b[4] & 0x04, "%s: its frame has no content checksum (frame header 0x%02x)", zst[i], b[4]);
		text = malloc(plain_len + 1);
		size_t got = ZSTD_decompress(text, plain_len + 1, b, len);
		cr_expect(!ZSTD_isError(got) && got == plain_len && memcmp(text, plain, got) == 0,
		          "%s is not the run's CSV", zst[i]);
		b[len - 1] ^= 0x5a; /* the checksum's last byte */
		got = ZSTD_decompress(text, plain_len + 1, b, len);
		cr_expect(ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_checksum_wrong,
		          "%s: a changed checksum went unnoticed", zst[i]);
		free(text);
		free(b);
	}
	free(plain);
}
