/*
 * sim — the flock's lifecycle; see include/sim.h.
 *
 * sim.c allocates and frees the state, and hands the rest to the model of
 * s->p.model (include/model.h): its parameters, its own state, its start
 * flock and its step.  After each step it bounds the state, whatever the
 * model.  It knows the models only through the registry.
 */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flock.h"
#include "hugemem.h"
#include "model.h"

void sim_params_default(struct sim_params *p, double width, double height)
{
	const struct boids_model *const *m = model_list();

	memset(p, 0, sizeof(*p));
	p->width = width;
	p->height = height;
	p->dims = 2;
	p->depth = width < height ? width : height;
	p->predators = 3;
	p->edges = SIM_BOUNCE;
	p->update = SIM_SEQUENTIAL;
	p->search = SIM_SEARCH_GRID;
	p->model = m[0]; /* harden */
	for (; *m; m++)
		if ((*m)->params_default)
			(*m)->params_default(p);

	p->obstacles = NULL;
	p->obstacles_n = 0;
	p->obstacle_margin = 30;
	p->obstacle_weight = .2;

	p->target_mode = SIM_TARGET_LISSAJOUS;
	p->target_x = p->width / 2;
	p->target_y = p->height / 2;
	p->target_z = p->depth / 2;
	p->target_amp_x = .3;
	p->target_amp_y = .3;
	p->target_freq_x = 3;
	p->target_freq_y = 2;
	p->target_amp_z = .3;
	p->target_freq_z = 1;
	p->target_period = 1200;
}

/* Frees what sim_init() allocated; the model's state through its entry. */
static void free_arrays(struct sim *s)
{
	if (s->state_of && s->state_of->state_release)
		s->state_of->state_release(s);
	free(s->x); /* one block holds all the double arrays */
	free(s->z); /* and one the 3D ones */
	free(s->g2);
	free(s->esc);
	free(s->escf);
	free(s->escnext);
	free(s->eschead);
	free(s->undo);
}

int sim_init(struct sim *s, const struct sim_params *p, size_t n, struct pool *pool)
{
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->n = n;
	s->pool = pool;
	grid_init(&s->grid);
	size_t m = n ? n : 1;
	int d3 = p->dims == 3;
	/* six arrays, then in 3D the copies (records of six); a plane's
	 * records of four have a block of their own, aligned to the cache line */
	double *a = calloc((d3 ? 12 : 6) * m, sizeof(double));
	s->esc = calloc(m, sizeof(uint32_t));
	s->escf = calloc(m + 8, 1); /* + 8: a model may read a run's flags 4 or 8 at a time (abm) */
	s->escnext = calloc(m, sizeof(uint32_t));
	s->x = a;
	if (!a || !s->esc || !s->escf || !s->escnext)
		goto fail;
	hugemem_advise(a, (d3 ? 12 : 6) * m * sizeof(double)); /* millions of boids: fewer TLB misses */
	hugemem_advise(s->esc, m * sizeof(uint32_t));
	hugemem_advise(s->escnext, m * sizeof(uint32_t));
	s->y = a + m;
	s->vx = a + 2 * m;
	s->vy = a + 3 * m;
	s->nvx = a + 4 * m;
	s->nvy = a + 5 * m;
	if (d3) {
		s->g3 = (struct sim_copy *)(a + 6 * m);
		if (!(s->z = calloc(3 * m, sizeof(double))))
			goto fail;
		hugemem_advise(s->z, 3 * m * sizeof(double));
		s->vz = s->z + m;
		s->nvz = s->z + 2 * m;
	} else {
		if (!(s->g2 = hugemem_alloc(m * sizeof(*s->g2))))
			goto fail;
	}
	if (p->model->state_init) {
		if (p->model->state_init(s) != 0)
			goto fail;
		s->state_of = p->model;
	}
	return 0;
fail:
	free_arrays(s);
	memset(s, 0, sizeof(*s));
	return -ENOMEM;
}

void sim_release(struct sim *s)
{
	free_arrays(s);
	grid_release(&s->grid);
	memset(s, 0, sizeof(*s));
}

void sim_randomize(struct sim *s, uint64_t seed)
{
	s->p.model->randomize(s, seed);
}

/* x within +-SIM_STATE_MAX; NaN (never expected) becomes 0. */
static double bound(double x)
{
	return x > -SIM_STATE_MAX ? (x < SIM_STATE_MAX ? x : SIM_STATE_MAX)
	       : x == x ? -SIM_STATE_MAX : 0;
}

void sim_watch(struct sim *s, int (*watch)(void *arg, size_t done), void *arg)
{
	s->watch = watch;
	s->watch_arg = arg;
}

int sim_step(struct sim *s)
{
	int err = s->p.model->step(s);

	if (s->stopped) { /* whatever the model did after its pass is undone too */
		flock_undo(s);
		return err ? err : -EINTR;
	}
	if (err)
		return err;
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = bound(s->x[i]);
		s->y[i] = bound(s->y[i]);
		s->vx[i] = bound(s->vx[i]);
		s->vy[i] = bound(s->vy[i]);
	}
	if (s->z)
		for (size_t i = 0; i < s->n; i++) {
			s->z[i] = bound(s->z[i]);
			s->vz[i] = bound(s->vz[i]);
		}
	s->steps++;
	return 0;
}

double sim_neighbours(const struct sim_params *p, size_t n)
{
	double near, far;

	p->model->ranges(p, &near, &far);
	double r = fmax(near, far), area = p->width * p->height;
	double seen = p->dims == 3 ? 4.0 / 3 * M_PI * r * r * r / (area * p->depth)
	              : M_PI * r * r / area;
	double others = n > 0 ? (double)(n - 1) : 0;
	return seen < 1 ? others * seen : others;
}

double sim_step_seconds(const struct sim_params *p, size_t n)
{
	return (double)n * (250e-9 + 16e-9 * sim_neighbours(p, n));
}

int sim_target(const struct sim *s, double *x, double *y)
{
	return sim_target_box(s, x, y, NULL);
}

int sim_target_box(const struct sim *s, double *x, double *y, double *z)
{
	return sim_target_back(s, 0, x, y, z);
}

int sim_target_back(const struct sim *s, uint64_t back, double *x, double *y, double *z)
{
	flock_target(&s->p, s->steps - (back < s->steps ? back : s->steps), x, y, z);
	return (s->p.model->flags & MODEL_TARGET) && s->p.target_mode != SIM_TARGET_NONE;
}

int sim_wraps(const struct sim *s)
{
	return (s->p.edges & SIM_WRAP) || (s->p.model->flags & MODEL_WRAPS);
}
