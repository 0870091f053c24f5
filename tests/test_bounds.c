/*
 * Every input is bounded before it is held: --init from a CSV stream, a
 * gzip or zstd CSV and an HDF5 file is refused (exit 2, the limit's
 * message, never ENOMEM) by what it declares or at the first row past the
 * limit, and refusing it takes no more memory than a flock at the limit
 * (10,000,000 boids of 4 doubles) plus a constant (64 MiB: the program, its
 * libraries, the readers' buffers).  The binary runs under that address
 * space limit (`ulimit -v`, RLIMIT_AS), except under ASan, which reserves
 * terabytes of address space (there the messages are still checked).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(bounds, .init = setup, .fini = teardown, .timeout = 120);

/* A flock at the limit, 10^7 boids of x, y, vx, vy, plus 64 MiB, in KiB for ulimit -v. */
#define LIMIT_KIB ((10000000LL * 4 * 8 + (64LL << 20)) / 1024)

/*
 * Runs the real binary with args under the address space limit; returns
 * its exit status, its stderr in *err (the caller frees it).
 */
static int limited(char **err, const char *args)
{
	char limit[64] = "";
	if (!getenv("ASAN_OPTIONS"))
		snprintf(limit, sizeof limit, "ulimit -v %lld;", LIMIT_KIB);
	int st = tc_sh("%s '%s' %s 2>err.txt", limit, getenv("BOIDS_BIN"), args);
	*err = tc_slurp("err.txt", NULL);
	cr_assert_not_null(*err);
	return st;
}

/* Exit 2 with one line holding want, and no trajectory written. */
static void refused(const char *args, const char *want)
{
	char *err, full[512];
	snprintf(full, sizeof full, "%s --no-render -f 1 --trajectory t.csv", args);
	int st = limited(&err, full);
	cr_expect_eq(st, 2, "%s: exit %d: %s", args, st, err);
	cr_expect(strstr(err, want) && strchr(err, '\n') == err + strlen(err) - 1, "%s: %s", args, err);
	cr_expect_neq(access("t.csv", F_OK), 0, "%s: a trajectory was written", args);
	free(err);
}

/*
 * A 430 KB gzip of 10,000,001 rows (one frame: no frame column) used to be
 * read whole, its columns growing to 2^24 rows and copied on each growth:
 * under this limit that was ENOMEM, exit 1.  Now the reader stops at row
 * 10,000,001, holding at most the limit's rows.
 */
Test(bounds, a_stream_past_the_flock_limit_stops_at_the_limit_within_its_memory)
{
	cr_assert_eq(tc_sh("{ echo x,y,vx,vy; yes 0,0,0,0 | head -n 10000001; } | gzip -1 > rows.csv.gz"), 0);
	refused("--init rows.csv.gz",
	        "--init: 'rows.csv.gz' line 10000002: frame 0 has more than 10000000 boids (at most 10000000)");
}

/* The header's columns: 1024 are read (the known ones among them), 1025 refused. */
Test(bounds, a_header_of_more_than_1024_columns_is_refused)
{
	cr_assert_eq(tc_sh("{ printf x,y,vx,vy; for i in $(seq 5 1024); do printf ,c$i; done; echo; "
	                   "printf 1,2,3,4; for i in $(seq 5 1024); do printf ,0; done; echo; } > wide.csv && "
	                   "{ printf x,y,vx,vy; for i in $(seq 5 1025); do printf ,c$i; done; echo; "
	                   "printf 1,2,3,4; for i in $(seq 5 1025); do printf ,0; done; echo; } > wider.csv"), 0);
	char *err;
	cr_expect_eq(limited(&err, "--init wide.csv --no-render -f 1 --trajectory w.csv"), 0, "%s", err);
	free(err);
	char *t = tc_slurp("w.csv", NULL);
	cr_expect(t && strcmp(t, "frame,id,x,y,vx,vy\n0,0,1,2,3,4\n") == 0, "%s", t ? t : "(none)");
	free(t);
	refused("--init wider.csv", "--init: 'wider.csv' line 1: the header has 1025 columns (at most 1024)");
}

/*
 * A zstd frame asking for a 2 GiB window (windowLog 31, as zstd --long=31
 * writes) is refused by its header; a 128 MiB one (27) is read.  Each frame
 * is one raw block holding the CSV.
 */
Test(bounds, a_zstd_window_beyond_128_mib_is_refused)
{
	static const char csv[] = "x,y,vx,vy\n1,2,3,4\n";
	for (int log = 27; log <= 31; log += 4) {
		unsigned char frame[64] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, (unsigned char)((log - 10) << 3) };
		size_t n = sizeof csv - 1, at = 6;
		unsigned head = (unsigned)n << 3 | 1; /* size, raw block, the last one */
		frame[at++] = (unsigned char)head;
		frame[at++] = (unsigned char)(head >> 8);
		frame[at++] = (unsigned char)(head >> 16);
		memcpy(frame + at, csv, n);
		FILE *f = fopen(log == 27 ? "ok.csv.zst" : "huge.csv.zst", "wb");
		cr_assert_not_null(f);
		cr_assert_eq(fwrite(frame, 1, at + n, f), at + n);
		fclose(f);
	}
	char *err;
	cr_expect_eq(limited(&err, "--init ok.csv.zst --no-render -f 1 --trajectory w.csv"), 0, "%s", err);
	free(err);
	refused("--init huge.csv.zst", "--init: 'huge.csv.zst' line 1: its zstd data needs a window larger than "
	                               "128 MiB to decode (written with zstd --long=28 or more?)");
}

/* HDF5 files of a few KB declaring what they do not hold (h5py writes the shapes; no chunk is stored). */
static const char h5_files[] =
	"import h5py\n"
	"def traj(name, frames, boids, chunk=None):\n"
	"    with h5py.File(name, 'w') as f:\n"
	"        for d in ('positions', 'velocities'):\n"
	"            f.create_dataset(d, shape=(frames, boids, 2), dtype='f8',\n"
	"                             chunks=chunk or (1, min(boids, 1024), 2))\n"
	"        f.create_dataset('frame', shape=(frames,), dtype='i8', chunks=(min(frames, 1024),))\n"
	"traj('boids.h5', 1, 10**9)\n"
	"traj('frames.h5', 10**9, 1)\n"
	"traj('many.h5', 10**8, 1)\n"
	"traj('chunk.h5', 100, 100000, (100, 100000, 2))\n";

/*
 * 10^9 boids used to be allocated for (ENOMEM, exit 1, "line 0"), 10^8
 * frames' numbers read whole (800 MB); a chunk of 153 MiB (100 frames of
 * 100,000 boids) would be held whole to read one frame.  Now the shapes are
 * checked before anything is read, and the frame numbers are read a block
 * at a time: 10^8 frames are taken (the last is read).
 */
Test(bounds, hdf5_shapes_beyond_the_limits_are_refused_before_anything_is_read)
{
	FILE *f = fopen("make.py", "w");
	cr_assert_not_null(f);
	fputs(h5_files, f);
	fclose(f);
	cr_assert_eq(tc_sh("'%s' make.py", tc_python()), 0);
	refused("--init boids.h5", "--init: 'boids.h5': it has 1000000000 boids (at most 10000000)");
	refused("--init frames.h5", "--init: 'frames.h5': it has 1000000000 frames (at most 100000000)");
	refused("--init chunk.h5", "--init: 'chunk.h5': 'positions' is stored in chunks of 153 MiB, more than "
	                           "boids reads (64 MiB: a frame, or 64 MiB)");
	char *err;
	cr_expect_eq(limited(&err, "--init many.h5 --no-render -f 1 --trajectory w.csv"), 0, "%s", err);
	free(err);
	char *t = tc_slurp("w.csv", NULL);
	cr_expect(t && strcmp(t, "frame,id,x,y,vx,vy\n0,0,0,0,0,0\n") == 0, "%s", t ? t : "(none)");
	free(t);
}
