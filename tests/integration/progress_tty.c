/*
 * The progress bar on a real terminal (a pseudo-terminal from the machine,
 * which a bare chroot may lack: hence this tier): it fits the terminal's
 * width, follows a resize between two redraws, and reaches a terminal
 * through script(1) in 40 columns.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common.h"
#include "progress.h"

TestSuite(progress_tty, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);

/* The widest piece of text between carriage returns and newlines, with the
 * "erase to end of line" sequence not counted. */
static int widest(const char *s)
{
	int best = 0, cur = 0;
	for (; *s; s++) {
		if (*s == '\r' || *s == '\n') {
			cur = 0;
		} else if (s[0] == '\033' && s[1] == '[' && s[2] == 'K') {
			s += 2;
		} else if (++cur > best) {
			best = cur;
		}
	}
	return best;
}

/* Reads what is waiting on the terminal's master side. */
static char *drain(int master)
{
	static char buf[4096];
	ssize_t n = read(master, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static void set_columns(int fd, int cols)
{
	struct winsize ws = { .ws_row = 24, .ws_col = (unsigned short)cols };
	cr_assert_eq(ioctl(fd, TIOCSWINSZ, &ws), 0);
}

Test(progress_tty, the_bar_fits_the_terminal_and_follows_a_resize)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	cr_assert_geq(master, 0);
	cr_assert_eq(grantpt(master), 0);
	cr_assert_eq(unlockpt(master), 0);
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	cr_assert_geq(slave, 0);
	FILE *f = fdopen(slave, "w");
	cr_assert_not_null(f);

	struct progress p;
	int widths[] = { 100, 50, 30, 12 };
	for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
		set_columns(slave, widths[i]);
		cr_assert_eq(progress_columns(slave), widths[i]);
		progress_start(&p, f, PROGRESS_BAR, 300000, 1);
		p.start -= 1000; /* as if it had run for a while: a real rate */
		progress_update(&p, 300000); /* the end is always drawn */
		char *out = drain(master);
		cr_assert(strstr(out, "300000"), "%s", out);
		cr_assert_lt(widest(out), widths[i], "%d columns: '%s'", widths[i], out);
		if (widths[i] >= 50)
			cr_assert(strchr(out, '#'), "a bar at %d columns: '%s'", widths[i], out);
	}
	fclose(f);
	close(master);
}

Test(progress_tty, the_bar_reaches_a_terminal_through_script)
{
	/* util-linux script(1) gives boids a real terminal, 40 columns wide */
	cr_assert_eq(tc_sh("script -qec 'stty cols 40 rows 10; \"$BOIDS_BIN\" --no-render -f 30 -n 300 "
	                   "--progress always' tty.txt > /dev/null 2>&1"), 0);
	char *t = tc_slurp("tty.txt", NULL);
	cr_assert_not_null(t);
	cr_assert(strstr(t, "30/30 frames"), "%s", t);
	cr_assert(strstr(t, "\033[K"), "a bar on a terminal: %s", t);
	/* every redraw fits in 40 columns (the closing line is its own) */
	char *bar = strrchr(t, '\r');
	cr_assert_not_null(bar);
	int w = 0;
	for (char *c = strstr(t, "\r"); c && c < bar; c = strchr(c + 1, '\r')) {
		char *n = strpbrk(c + 1, "\r\033");
		if (n && n - c - 1 > w)
			w = (int)(n - c - 1);
	}
	cr_assert_leq(w, 39, "%s", t);
	free(t);
}

