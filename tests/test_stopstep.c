/*
 * A step stopped in its middle (sim_watch) is undone: sim_step() says
 * -EINTR and the flock is exactly the previous step's, so no half-stepped
 * frame can be written; a watch that never stops changes no bit.  Every
 * model, both update orders, plane and box, on a pool (the parallel pass).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "pool.h"
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
