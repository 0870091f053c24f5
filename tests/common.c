/* Helpers for tests that run the binary; see common.h. */
#define _GNU_SOURCE /* close_range, program_invocation_name */
#include "common.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "sim.h"

/*
 * boids's main(), compiled a second time as boids_main() into the hermetic
 * test binary (Makefile: $(BUILD)/tests/boids_main.o).  Weak: a binary
 * linked without it (the integration tier) always runs the real one.
 */
int boids_main(int argc, char **argv) __attribute__((weak));

static char dir[256];
static char *out_text, *err_text;

const char *tc_tmpdir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/boids-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	return dir;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

void tc_cleanup(void)
{
	if (!dir[0])
		return;
	if (chdir("/") != 0)
		return;
	/* in this process; rm -rf when that fails (it says why) */
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0 && tc_sh("rm -rf '%s'", dir) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	dir[0] = 0;
}

const char *tc_python(void)
{
	const char *e = getenv("BOIDS_PYTHON");
	if (e && *e)
		return e;
	return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

char *tc_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static int status_of(int st)
{
	if (st == -1)
		return -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int tc_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return status_of(system(cmd));
}

/* Set by on_exit() in the child: exit()'s status, after boids's own stdio. */
static void child_exit(int status, void *unused)
{
	(void)unused;
	fflush(NULL);
	_exit(status);
}

/*
 * The child of run_in_process(): made to look like a fresh exec of the
 * binary, then boids_main().  Never returns.
 */
static void child(char **argv, int argc)
{
	int in = open("/dev/null", O_RDONLY);
	int out = open(".tc_stdout", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	int err = open(".tc_stderr", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	/* no descriptor of the test or of Criterion leaks into boids */
	close_range(3, ~0U, 0);

	/* every signal at its default and none blocked, as a login shell
	 * starts a command (Criterion may catch, ignore or block some) */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL); /* fails harmlessly for glibc's own */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* the C locale and stdio of a fresh process: stdout to a file fully
	 * buffered, stderr unbuffered, nothing read from stdin yet */
	setlocale(LC_ALL, "C");
	__fpurge(stdin);
	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	setvbuf(stderr, NULL, _IONBF, 0);
	program_invocation_name = argv[0];
	program_invocation_short_name = argv[0];
	errno = 0;

	/* exit() from anywhere in boids flushes boids's streams, runs what
	 * boids registered with atexit(), then ends here: the test process's
	 * own exit handlers (Criterion's) are not run in the child */
	on_exit(child_exit, NULL);
	exit(boids_main(argc, argv));
}

/*
 * Runs boids_main() in a forked child of this process: `boids ARGS` for a
 * fraction of the cost of exec'ing the binary, which maps ~170 shared
 * libraries.  Returns -2 when args need a shell (redirections, pipes,
 * command substitution: anything wordexp() refuses), else the exit status
 * as status_of() gives it.
 */
static int run_in_process(const char *args)
{
	wordexp_t we;
	int r = wordexp(args, &we, WRDE_NOCMD);
	if (r != 0) {
		if (r == WRDE_NOSPACE)
			wordfree(&we);
		return -2;
	}
	char **argv = calloc(we.we_wordc + 2, sizeof(*argv));
	cr_assert_not_null(argv);
	argv[0] = "boids";
	for (size_t i = 0; i < we.we_wordc; i++)
		argv[i + 1] = we.we_wordv[i];

	fflush(NULL); /* nothing of this process's buffers is written twice */
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0)
		child(argv, (int)we.we_wordc + 1);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		cr_assert_eq(errno, EINTR, "waitpid: %s", strerror(errno));
	free(argv);
	wordfree(&we);
	return status_of(st);
}

/* 1 when tc_boids() runs boids_main() in a child rather than the binary. */
static int in_process(void)
{
	const char *e = getenv("BOIDS_TEST_EXEC");
	return boids_main && !(e && *e && strcmp(e, "0") != 0);
}

static int run_boids(int exec_it, const char *args_fmt, va_list ap)
{
	char *args, *cmd;
	const char *bin = getenv("BOIDS_BIN");
	int st = -2;

	/* boids writes beside itself (flock.mp4, .tc_stdout): never in the checkout */
	cr_assert(dir[0], "tc_boids() before tc_tmpdir(): the run would write in %s", getcwd(NULL, 0));
	cr_assert_geq(vasprintf(&args, args_fmt, ap), 0);
	if (!exec_it && in_process())
		st = run_in_process(args);
	if (st == -2) {
		cr_assert_not_null(bin, "BOIDS_BIN is not set (run the suite with make test)");
		cr_assert_geq(asprintf(&cmd, "'%s' %s >.tc_stdout 2>.tc_stderr </dev/null", bin, args), 0);
		st = status_of(system(cmd));
		free(cmd);
	}
	free(args);
	free(out_text);
	free(err_text);
	out_text = tc_slurp(".tc_stdout", NULL);
	err_text = tc_slurp(".tc_stderr", NULL);
	unlink(".tc_stdout");
	unlink(".tc_stderr");
	if (!out_text)
		out_text = strdup("");
	if (!err_text)
		err_text = strdup("");
	return st;
}

int tc_boids(const char *args_fmt, ...)
{
	va_list ap;
	va_start(ap, args_fmt);
	int st = run_boids(0, args_fmt, ap);
	va_end(ap);
	return st;
}

int tc_boids_exec(const char *args_fmt, ...)
{
	va_list ap;
	va_start(ap, args_fmt);
	int st = run_boids(1, args_fmt, ap);
	va_end(ap);
	return st;
}

const char *tc_stdout(void)
{
	return out_text ? out_text : "";
}

const char *tc_stderr(void)
{
	return err_text ? err_text : "";
}

int tc_count_files(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

int tc_same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = tc_slurp(a, &la), *y = tc_slurp(b, &lb);
	int same = x && y && la == lb && memcmp(x, y, la) == 0;
	free(x);
	free(y);
	return same;
}

double tc_sim_apart(const struct sim *a, const struct sim *b)
{
	double d = 0;
	for (size_t i = 0; i < a->n; i++) {
		d = fmax(d, fabs(a->x[i] - b->x[i]) + fabs(a->y[i] - b->y[i]));
		d = fmax(d, fabs(a->vx[i] - b->vx[i]) + fabs(a->vy[i] - b->vy[i]));
	}
	return d;
}

double tc_sim_diff(const struct sim *a, const struct sim *b)
{
	double d = 0;
	for (size_t i = 0; i < a->n; i++) {
		d = fmax(d, fabs(a->x[i] - b->x[i]));
		d = fmax(d, fabs(a->y[i] - b->y[i]));
		d = fmax(d, fabs(a->vx[i] - b->vx[i]));
		d = fmax(d, fabs(a->vy[i] - b->vy[i]));
		if (a->z) {
			d = fmax(d, fabs(a->z[i] - b->z[i]));
			d = fmax(d, fabs(a->vz[i] - b->vz[i]));
		}
	}
	return d;
}

void tc_sim_copy(struct sim *to, const struct sim *from)
{
	size_t bytes = from->n * sizeof(double);
	memcpy(to->x, from->x, bytes);
	memcpy(to->y, from->y, bytes);
	memcpy(to->vx, from->vx, bytes);
	memcpy(to->vy, from->vy, bytes);
	if (from->z) {
		memcpy(to->z, from->z, bytes);
		memcpy(to->vz, from->vz, bytes);
	}
	to->steps = from->steps;
}
