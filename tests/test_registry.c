/*
 * The model registry (include/model.h) against facts from elsewhere: the
 * binary's --list-models, its --list-options and the settings it prints for
 * each model (--print-config).  A registry that lost a model, named one
 * differently, or carried a program default the command line does not know
 * fails here.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model.h"
#include "sim.h"

static void setup(void)
{
	tc_tmpdir();
}

TestSuite(registry, .init = setup, .fini = tc_cleanup);

/* The first word of each line of `boids --list-models`, in order; n of them. */
static size_t listed(char names[][32], size_t max)
{
	cr_assert_eq(tc_boids("--list-models"), 0, "%s", tc_stderr());
	size_t n = 0;
	for (const char *l = tc_stdout(); *l && n < max; n++) {
		while (*l == ' ') { /* a model's source lines */
			l = strchr(l, '\n');
			cr_assert_not_null(l);
			l++;
		}
		if (!*l)
			break;
		size_t w = strcspn(l, " \n");
		cr_assert(w > 0 && w < 32, "a line of --list-models without a name: '%s'", l);
		memcpy(names[n], l, w);
		names[n][w] = 0;
		l = strchr(l, '\n');
		if (!l)
			break;
		l++;
	}
	return n;
}

/* A flock of 60 boids of model m, 30 steps: still finite, and it moved. */
static void steps_a_flock(const struct boids_model *m)
{
	struct sim_params p;
	struct sim s;

	sim_params_default(&p, 320, 180);
	p.model = m;
	cr_assert_eq(sim_init(&s, &p, 60, NULL), 0, "%s", m->name);
	sim_randomize(&s, 5);
	double x0 = s.x[10], y0 = s.y[10];
	for (int t = 0; t < 30; t++)
		cr_assert_eq(sim_step(&s), 0, "%s", m->name);
	cr_assert_eq(s.steps, 30);
	for (size_t i = 0; i < s.n; i++)
		cr_assert(isfinite(s.x[i]) && isfinite(s.y[i]) && isfinite(s.vx[i]) && isfinite(s.vy[i]),
		          "%s: boid %zu", m->name, i);
	/* (vicsek's particles move 0.03 a step: 0.9 in 30) */
	cr_assert(hypot(s.x[10] - x0, s.y[10] - y0) > .5, "%s: boid 10 did not move", m->name);
	sim_release(&s);
}

Test(registry, every_listed_model_is_found_and_steps_a_flock)
{
	char names[16][32];
	size_t n = listed(names, 16);
	const struct boids_model *const *all = model_list();
	size_t count = 0;

	while (all[count])
		count++;
	cr_assert_geq(n, 5, "harden, processing, steering, canvas, opengl at least");
	cr_assert_eq(n, count, "--list-models shows %zu models, the registry has %zu", n, count);
	cr_assert_str_eq(names[0], "harden", "the default comes first");
	cr_assert(strstr(tc_stdout(), "[default]") < strchr(tc_stdout(), '\n'));
	for (size_t i = 0; i < n; i++) {
		const struct boids_model *m = model_find(names[i]);
		cr_assert_not_null(m, "'%s' is listed but not found", names[i]);
		cr_assert_str_eq(m->name, names[i]);
		cr_assert(m->summary && *m->summary && m->seed && m->notes, "%s", m->name);
		cr_assert(strstr(tc_stdout(), m->summary), "%s: its summary is what --list-models says", m->name);
		steps_a_flock(m);
		cr_assert_str_eq(model_names[i], m->name, "-m's choices follow the registry");
	}
	cr_assert_null(model_names[n]);

	struct sim_params p;
	sim_params_default(&p, 640, 360);
	cr_assert_eq(p.model, model_find("harden"));
}

Test(registry, unknown_names_are_null)
{
	const char *bad[] = { "", "Harden", "harden ", " harden", "flocking", "opengl2", "proc" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_assert_null(model_find(bad[i]), "'%s'", bad[i]);
}

/* Is `--name` an option of `boids --list-options` (its JSON, as printed)? */
static int is_option(const char *options, const char *name)
{
	char quoted[96];
	snprintf(quoted, sizeof quoted, "{\"name\": \"%s\",", name);
	return strstr(options, quoted) != NULL;
}

Test(registry, program_defaults_are_options_the_binary_applies)
{
	cr_assert_eq(tc_boids("--list-options"), 0, "%s", tc_stderr());
	char *options = strdup(tc_stdout());
	cr_assert(is_option(options, "boids") && !is_option(options, "no-such-option"));

	for (const struct boids_model *const *m = model_list(); *m; m++) {
		const char *const *d = (*m)->program_defaults;
		cr_assert_not_null(d, "%s", (*m)->name);
		cr_assert_eq(tc_boids("-m %s --print-config", (*m)->name), 0, "%s", tc_stderr());
		for (; *d; d++) {
			const char *eq = strchr(*d, '=');
			cr_assert(eq && eq > *d && eq[1], "%s: '%s' is not key=value", (*m)->name, *d);
			char key[64], line[160];
			snprintf(key, sizeof key, "%.*s", (int)(eq - *d), *d);
			cr_assert(is_option(options, key), "%s: '%s' is no option of --list-options",
			          (*m)->name, key);
			/* the scene the binary sets up for -m NAME has it */
			snprintf(line, sizeof line, "\n%s = %s\n", key, eq + 1);
			cr_assert(strstr(tc_stdout(), line), "%s: --print-config has no '%s = %s'",
			          (*m)->name, key, eq + 1);
		}
	}
	free(options);
}

/*
 * --print-config says what a model does at the edges: one whose program
 * always wraps (MODEL_WRAPS, whatever --edges) prints edges = wrap, as
 * docs/MODEL.md says (it said bounce for processing and canvas).
 */
Test(registry, a_model_that_always_wraps_prints_edges_wrap)
{
	for (const struct boids_model *const *m = model_list(); *m; m++) {
		if (!((*m)->flags & MODEL_WRAPS))
			continue;
		cr_assert_eq(tc_boids("-m %s --print-config", (*m)->name), 0, "%s", tc_stderr());
		cr_assert(strstr(tc_stdout(), "\nedges = wrap\n"), "%s: %s", (*m)->name, tc_stdout());
	}
	cr_assert_eq(tc_boids("-m processing --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "\nedges = wrap\n"), "%s", tc_stdout());
}

#include "model_names.h"

/*
 * What lists the models is made from the registry: -m's help in --help,
 * and the tests' own ids (tests/model_names.h), each of which is the
 * entry --list-models shows in its place.
 */
Test(registry, the_m_help_and_the_tests_model_ids_follow_the_registry)
{
	char names[16][32];
	size_t n = listed(names, 16);

	cr_assert_eq(n, (size_t)MODEL_COUNT, "--list-models: %zu models, the tests' ids %d", n, MODEL_COUNT);
	for (int m = 0; m < MODEL_COUNT; m++)
		cr_expect_str_eq(model_at(m)->name, names[m], "id %d", m);
	cr_assert_eq(tc_boids("--help"), 0);
	const char *h = strstr(tc_stdout(), "--model=NAME");
	cr_assert_not_null(h, "--help shows no -m");
	char line[256];
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(h, "\n"), h);
	/* every name while they fit the line (the default follows them), else
	 * the way to list them */
	size_t room = 0;
	for (size_t i = 0; i < n; i++)
		room += strlen(names[i]) + (i ? 2 : 0);
	if (26 + room + strlen(" []") + strlen(names[0]) > 80) {
		cr_expect(strstr(line, "--list-models"), "-m's help \"%s\" neither lists nor points", line);
		return;
	}
	for (size_t i = 0; i < n; i++)
		cr_expect(strstr(line, names[i]), "-m's help \"%s\" lacks %s", line, names[i]);
}
