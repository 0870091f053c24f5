/*
 * Long steps, stopped and shown.  A step stopped in its middle (sim_watch)
 * is undone: sim_step() says -EINTR and the flock is exactly the previous
 * step's, so no half-stepped frame can be written; a watch that never
 * stops changes no bit (every model, both update orders, plane and box, on
 * a pool: the parallel pass).  A dense flock is announced before its first
 * step, from a neighbour estimate held against a brute-force count, and the
 * progress report moves inside a step.  The signals themselves, on the
 * binary: tests/integration/test_stopping.c.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "model.h"
#include "pool.h"
#include "progress.h"
#include "rng.h"
#include "signals.h"
#include "sim.h"

enum { N = 2400 };  /* above the parallel pass's threshold, 2048 */

/* What a watch saw: it stops once `at` boids are done (never when 0). */
struct seen {
	atomic_size_t calls, least, most;
	size_t at;
};

static int watch(void *arg, size_t done)
{
	struct seen *w = arg;
	size_t m = atomic_load(&w->most);

	atomic_fetch_add(&w->calls, 1);
	while (done > m && !atomic_compare_exchange_weak(&w->most, &m, done))
		;
	m = atomic_load(&w->least);
	while (done < m && !atomic_compare_exchange_weak(&w->least, &m, done))
		;
	return w->at && done >= w->at;
}

static void make(struct sim *s, const struct boids_model *m, int update, int dims,
                 struct pool *pool)
{
	struct sim_params p;

	sim_params_default(&p, 1000, 1000); /* every boid has neighbours and moves */
	p.model = m;
	p.update = update;
	p.dims = dims;
	cr_assert_eq(sim_init(s, &p, N, pool), 0);
	sim_randomize(s, 7);
	cr_assert_eq(sim_step(s), 0); /* a previous step, so the state is a stepped one */
}

/* The state's arrays, one after the other (z, vz in a box). */
static double *state_of(const struct sim *s)
{
	size_t k = s->z ? 6 : 4;
	double *a = malloc(k * N * sizeof(double));
	const double *src[] = { s->x, s->y, s->vx, s->vy, s->z, s->vz };

	cr_assert_not_null(a);
	for (size_t i = 0; i < k; i++)
		memcpy(a + i * N, src[i], N * sizeof(double));
	return a;
}

static int same_state(const struct sim *s, const double *a)
{
	double *b = state_of(s);
	int same = memcmp(a, b, (s->z ? 6u : 4u) * N * sizeof(double)) == 0;

	free(b);
	return same;
}

Test(stopstep, a_stopped_step_is_undone_and_an_unstopped_watch_changes_nothing)
{
	const struct boids_model *const *models = model_list();
	struct pool *pool = pool_new(3);

	cr_assert_not_null(pool);
	for (size_t i = 0; models[i]; i++)
		for (int update = SIM_SEQUENTIAL; update <= SIM_SYNCHRONOUS; update++)
			for (int dims = 2; dims <= 3; dims++) {
				const char *name = models[i]->name;
				struct sim a, b;
				make(&a, models[i], update, dims, pool);
				make(&b, models[i], update, dims, pool);
				double *before = state_of(&a);
				uint64_t steps = a.steps;

				/* stopped half way: nothing changed, not even the step count */
				struct seen w = { 0, SIZE_MAX, 0, N / 2 };
				sim_watch(&a, watch, &w);
				int err = sim_step(&a);
				cr_assert_eq(err, -EINTR, "%s %d %dD: %d", name, update, dims, err);
				cr_assert(w.calls > 0 && w.least < N && w.most < N,
				          "%s %d %dD: the watch was not asked inside the pass", name, update, dims);
				cr_assert(same_state(&a, before), "%s %d %dD: half a step was left", name, update, dims);
				cr_assert_eq(a.steps, steps);

				/* then a whole step, watched but not stopped, is the unwatched one */
				struct seen go = { 0, SIZE_MAX, 0, 0 };
				sim_watch(&a, watch, &go);
				cr_assert_eq(sim_step(&a), 0);
				cr_assert_eq(sim_step(&b), 0);
				cr_assert(go.calls > 0);
				double *want = state_of(&b);
				cr_assert(!same_state(&b, before), "%s: a step that moves nothing proves nothing", name);
				cr_assert(same_state(&a, want), "%s %d %dD: the undone step changed what follows",
				          name, update, dims);
				free(want);
				free(before);
				sim_release(&a);
				sim_release(&b);
			}
	pool_free(pool);
}

/*
 * What an undo costs: a pass that moves nobody (harden's steering, slack 0)
 * takes a stopped step's positions back from the grid's copies, so it
 * saves none (16 bytes a boid, 160 MB at 10M boids) and allocates no
 * chain heads; a pass that moves its boids (canvas) saves them.  The
 * undo itself is checked bit for bit above.
 */
Test(stopstep, a_pass_that_moves_nobody_saves_no_positions)
{
	const struct boids_model *const *models = model_list();

	for (size_t i = 0; models[i]; i++) {
		int still = strcmp(models[i]->name, "harden") == 0;
		if (!still && strcmp(models[i]->name, "canvas") != 0)
			continue;
		struct sim a;
		make(&a, models[i], SIM_SEQUENTIAL, 2, NULL);
		struct seen w = { 0, SIZE_MAX, 0, N / 2 };
		sim_watch(&a, watch, &w);
		cr_assert_eq(sim_step(&a), -EINTR);
		if (still)
			cr_assert(!a.undo && !a.eschead, "harden: positions saved (%p) or chain heads (%p)",
			          (void *)a.undo, (void *)a.eschead);
		else
			cr_assert(a.undo && a.eschead, "canvas moves its boids in its pass: it must save them");
		sim_release(&a);
	}
}

/*
 * A bound of 0 is not a pass that moves nobody: opengl with zero speeds
 * has slack 0, and its walls and separation still move boids.  Its
 * sequential pass must list every boid that moves (the grid's steps are
 * brute force's, to rounding) and save positions for a stopped step's
 * undo (checked bit for bit), in the plane and in a box.
 */
Test(stopstep, a_bound_of_zero_still_lists_and_saves_the_boids_that_move)
{
	const struct boids_model *m = model_find("opengl");

	cr_assert_not_null(m);
	for (int dims = 2; dims <= 3; dims++) {
		struct sim g, b, w;
		struct sim_params p;
		sim_params_default(&p, 1000, 1000);
		p.model = m;
		p.update = SIM_SEQUENTIAL;
		p.dims = dims;
		p.gl.speed_min = p.gl.speed_max = p.gl.predator_boost = 0;
		cr_assert_eq(sim_init(&g, &p, N, NULL), 0);
		p.search = SIM_SEARCH_BRUTE;
		cr_assert_eq(sim_init(&b, &p, N, NULL), 0);
		p.search = SIM_SEARCH_GRID;
		cr_assert_eq(sim_init(&w, &p, N, NULL), 0);
		sim_randomize(&g, 7);
		sim_randomize(&b, 7);
		sim_randomize(&w, 7);
		double *start = state_of(&g);
		for (int k = 0; k < 3; k++) {
			cr_assert_eq(sim_step(&g), 0);
			cr_assert_eq(sim_step(&b), 0);
		}
		double *want = state_of(&b), *got = state_of(&g), far = 0;
		cr_assert(!same_state(&b, start), "%dD: nobody moved, which proves nothing", dims);
		for (size_t i = 0; i < (dims == 3 ? 6u : 4u) * N; i++)
			far = fmax(far, fabs(got[i] - want[i]));
		/* the grid sums neighbours in another order than brute force: far
		 * below a pixel; a neighbour missed is a whole push */
		cr_assert_leq(far, 1e-9, "%dD: the grid's steps are %g from brute force's: a mover was not listed",
		              dims, far);
		free(got);
		struct seen s = { 0, SIZE_MAX, 0, N / 2 };
		sim_watch(&w, watch, &s);
		cr_assert_eq(sim_step(&w), -EINTR);
		cr_assert(same_state(&w, start), "%dD: half a step was left", dims);
		free(start);
		free(want);
		sim_release(&g);
		sim_release(&b);
		sim_release(&w);
	}
}

/* Neighbours within r of each of n random boids on a torus (no edges), on average: brute force. */
static double counted(const struct sim_params *p, size_t n, double r)
{
	double *x = malloc(3 * n * sizeof(double)), *y = x + n, *z = x + 2 * n;
	double size[3] = { p->width, p->height, p->depth };
	struct rng g;
	size_t pairs = 0;

	cr_assert_not_null(x);
	rng_seed(&g, 3);
	for (size_t i = 0; i < n; i++) {
		x[i] = rng_uniform(&g) * size[0];
		y[i] = rng_uniform(&g) * size[1];
		z[i] = rng_uniform(&g) * size[2];
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d[3] = { fabs(x[i] - x[j]), fabs(y[i] - y[j]), fabs(z[i] - z[j]) }, d2 = 0;
			for (int a = 0; a < p->dims; a++) {
				double e = fmin(d[a], size[a] - d[a]);
				d2 += e * e;
			}
			pairs += d2 < r * r;
		}
	free(x);
	return 2.0 * (double)pairs / (double)n;
}

Test(stopstep, the_neighbour_estimate_is_what_a_brute_force_count_finds)
{
	const struct boids_model *const *models = model_list();

	for (size_t i = 0; models[i]; i++)
		for (int dims = 2; dims <= 3; dims++) {
			struct sim_params p;
			double near, far;
			sim_params_default(&p, 600, 400);
			p.model = models[i];
			p.dims = dims;
			models[i]->ranges(&p, &near, &far);
			size_t n = 3000;
			double want = counted(&p, n, fmax(near, far)), got = sim_neighbours(&p, n);
			cr_assert(fabs(got - want) < 0.05 * want + 0.5, "%s %dD: estimate %.2f, counted %.2f",
			          models[i]->name, dims, got, want);
		}
	/* never more than the others */
	struct sim_params p;
	sim_params_default(&p, 10, 10);
	cr_assert_eq(sim_neighbours(&p, 50), 49);
}

Test(stopstep, a_dense_flock_is_announced_before_its_first_step, .init = (void (*)(void))tc_tmpdir,
     .fini = tc_cleanup)
{
	/* 20,000 boids in 64x36: each sees all the others; -f 1 makes no step */
	cr_assert_eq(tc_boids("-n 20000 -s 64x36 --no-render -f 1"), 0);
	const char *e = tc_stderr();
	cr_assert(strstr(e, "boids: about 19999 neighbours per boid: each step of these 20000 boids may take "
	                    "seconds (a larger field, -s/--size, or fewer boids, -n/--boids, spreads the flock)\n"),
	          "%s", e);
	cr_assert_eq(tc_boids("-n 20000 -s 64x36 --no-render -f 1 -q"), 0);
	cr_assert_str_empty(tc_stderr());
	/* the default flock, and a million spread over 16384x9216 (some 50 each): no word */
	cr_assert_eq(tc_boids("--no-render -f 1"), 0);
	cr_assert(!strstr(tc_stderr(), "neighbours"), "%s", tc_stderr());
	struct sim_params p;
	sim_params_default(&p, 16384, 9216);
	cr_assert_lt(1e6 * sim_neighbours(&p, 1000000), 2e8);
}

Test(stopstep, the_progress_report_moves_inside_a_step)
{
	struct progress bar;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	progress_start(&bar, f, PROGRESS_LINES, 10, 1e-9);
	while (progress_now() == bar.start)
		; /* one interval, a nanosecond, has passed */
	progress_step(&bar, 3, 0.25);
	progress_step(&bar, 3, 0.2504); /* the same tenth of a percent: not again */
	progress_step(&bar, 3, 0.5);
	progress_end(&bar);
	progress_start(&bar, f, PROGRESS_JSON, 10, 1e-9);
	while (progress_now() == bar.start)
		;
	progress_step(&bar, 0, 0.125);
	fclose(f);
	cr_assert(strstr(text, "boids: 3/10 frames (30%), frame 4 25.0% stepped, 0 s so far\n"
	                       "boids: 3/10 frames (30%), frame 4 50.0% stepped, 0 s so far\n{\"event\":\"progress\",\"frame\":0,"),
	          "%s", text);
	cr_assert(strstr(text, ",\"step\":0.125}\n"), "%s", text);
	free(text);
}

/* ------------------------------------------------------- the stop's clock */

/* In this child: the first signal, then (once the clock has run 0.3 s) a second; 0 when the clock kept the first. */
static int second_signal_child(void)
{
	signals_watch();
	raise(SIGINT);
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	while (signals_since() < 0.3) /* the clock runs from the first signal: wait for it to pass */
		nanosleep(&tick, NULL);
	double before = signals_since();
	raise(SIGINT); /* Ctrl-C again */
	raise(SIGTERM);
	double after = signals_since();
	if (signals_caught() != SIGINT)
		return 2; /* the first decides the status */
	return after >= before ? 0 : 1;
}

/*
 * The stop's deadlines (the encoder's drain, the trajectory's cut:
 * STOP_DRAIN seconds) count from the first signal: a second Ctrl-C, or
 * SIGTERM after it, must not restart the clock, or each one would buy the
 * drain another 0.35 s.  The clock is read before and after the second
 * signals: it never goes back.  (Only a 0.3 s stall between the two reads
 * could hide the bug; nothing can make the test fail without it.)
 */
Test(stopstep, the_stops_clock_runs_from_the_first_signal)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(second_signal_child());
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st), "the child died of signal %d: a handler was missing", WTERMSIG(st));
	cr_expect_neq(WEXITSTATUS(st), 2, "a second signal changed the stop's status");
	cr_expect_eq(WEXITSTATUS(st), 0, "a second signal restarted the stop's clock");
}
