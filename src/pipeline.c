/*
 * pipeline — the frame loop, simulate -> draw -> encode; see
 * include/pipeline.h.  Start reading at pipeline_run(): produce() is the
 * producer thread, draw() a drawing thread, encode_in_order() the consumer.
 */
#include "pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caption.h"
#include "cli.h"
#include "frameq.h"
#include "signals.h"
#include "tween.h"
#include "video.h"

/* What one pipeline slot carries: a copy of the flock and a renderer. */
struct slot_data {
	double *x, *y, *vx, *vy;     /* one block */
	double *z, *vz;              /* 3D: in the same block; NULL in 2D */
	double *trail_x, *trail_y;   /* oldest first, trail_len * n each (one block) */
	double *trail_z;             /* 3D: in the same block; NULL in 2D */
	size_t trail_len;
	int has_target;              /* the steering model's target, where it is */
	double target_x, target_y, target_z;
	struct render_view shown;    /* what the frame shows (n, predators, window, ranges: frame_of()) */
	struct renderer *renderer;
	struct video_picture *pic;   /* the drawn frame, converted for the encoder */
};

/*
 * Records that a pipeline stage failed: the first failure is reported (and
 * kept for the summary: outputs_failed(), the picture output's) and stops
 * every stage; later ones (often consequences) stay silent.  path NULL: the
 * failure was said already.
 */
static void stage_failed(struct pipeline *p, const char *what, const char *path, int err)
{
	struct failure f;

	pthread_mutex_lock(&p->fail_lock);
	if (!p->failed && path) {
		failure_cause(&f, what, path, err);
		p->failed = outputs_failed(p->out, OUTPUTS_PICTURES, &f);
	} else if (!p->failed) {
		p->failed = EXIT_FAILURE;
	}
	pthread_mutex_unlock(&p->fail_lock);
	if (p->queue)
		frameq_close(p->queue, -1);
}

static int has_failed(struct pipeline *p)
{
	pthread_mutex_lock(&p->fail_lock);
	int f = p->failed;
	pthread_mutex_unlock(&p->fail_lock);
	return f;
}

int pipeline_step(struct pipeline *p, long n)
{
	for (long i = 0; i < n; i++) {
		if (signals_caught())
			return 128 + signals_caught();
		int err = sim_step(p->sim);
		if (err == -EINTR && signals_caught())
			return 128 + signals_caught(); /* undone: no half-stepped frame */
		if (err) {
			struct failure f;
			failure_runtime(&f, "cannot step the flock: %s", strerror(-err));
			return outputs_failed(p->out, OUTPUTS_RUN, &f);
		}
	}
	return 0;
}

int pipeline_warmup(struct pipeline *p, struct progress *bar)
{
	long n = p->cfg->run.warmup;
	int st = 0;

	progress_warmup_start(bar, n, (double)p->cfg->run.step_num / (double)p->cfg->run.step_den);
	for (long i = 0; i < n && !st; i++) {
		st = pipeline_step(p, 1);
		if (!st)
			progress_warmup(bar, i + 1);
	}
	progress_warmup_end(bar);
	return st;
}

/* Inside a step, every few boids, from the stepping threads: cheap. */
/* render_watch()'s: a frame stops where a stop signal finds it. */
static int watch_frame(void *arg)
{
	(void)arg;
	return signals_caught() != 0;
}

static int watch_step(void *arg, size_t done)
{
	struct pipeline *p = arg;

	if (p->bar && !(done & 255)) /* a look at the clock every 256 boids is enough */
		progress_step(p->bar, p->stepping, (double)done / (double)p->sim->n);
	return signals_caught() != 0;
}

void pipeline_show_steps(struct pipeline *p, struct progress *bar)
{
	p->bar = bar;
}


/* Adds a frame's positions (a slot's: a step's, or between two) to the trail ring. */
static void push_trail(struct pipeline *p, const struct slot_data *d)
{
	size_t n = p->sim->n, bytes = n * sizeof(double);
	long len = p->cfg->run.trail;

	if (len < 2)
		return;
	memcpy(p->hist_x + (size_t)p->hist_next * n, d->x, bytes);
	memcpy(p->hist_y + (size_t)p->hist_next * n, d->y, bytes);
	if (p->hist_z)
		memcpy(p->hist_z + (size_t)p->hist_next * n, d->z, bytes);
	p->hist_next = (p->hist_next + 1) % len;
	if (p->hist_count < len)
		p->hist_count++;
}

/* Copies the ring into a slot, oldest frame first. */
static void copy_trail(const struct pipeline *p, struct slot_data *d)
{
	size_t n = p->sim->n, bytes = n * sizeof(double);
	long len = p->cfg->run.trail, first = (p->hist_next - p->hist_count + len) % (len ? len : 1);

	d->trail_len = (size_t)p->hist_count;
	for (long k = 0; k < p->hist_count; k++) {
		long at = (first + k) % len;
		memcpy(d->trail_x + (size_t)k * n, p->hist_x + (size_t)at * n, bytes);
		memcpy(d->trail_y + (size_t)k * n, p->hist_y + (size_t)at * n, bytes);
		if (d->trail_z)
			memcpy(d->trail_z + (size_t)k * n, p->hist_z + (size_t)at * n, bytes);
	}
}

/* ------------------------------------------------- frames between steps */

/*
 * Keeps the flock's state (the step a frame between two steps starts
 * from) in p->tw: x, y, vx, vy (and z, vz) one after another.
 */
static void keep_state(struct pipeline *p)
{
	const struct sim *m = p->sim;
	size_t n = m->n, bytes = n * sizeof(double);
	const double *cols[6] = { m->x, m->y, m->vx, m->vy, m->z, m->vz };

	for (int c = 0; c < (m->z ? 6 : 4); c++)
		memcpy(p->tw + (size_t)c * n, cols[c], bytes);
}

/*
 * Steps the flock to where frame k stands (tween.h): its step, or for a
 * frame between two steps (`between`: it will be drawn) the later one,
 * the earlier kept in p->tw.  *part: 0 on a step, else how far past it,
 * in run.step_den-ths.  Returns pipeline_step()'s status.
 */
static int reach_frame(struct pipeline *p, long k, int between, long *part)
{
	const struct run_options *s = &p->cfg->run;
	long step;

	tween_at(k, s->step_num, s->step_den, &step, part);
	if (*part && between && p->tw_at == step && p->at == step + 1)
		return 0; /* another frame between the same two steps */
	int st = pipeline_step(p, step - p->at);
	if (st)
		return st;
	p->at = step;
	if (!*part || !between)
		return 0;
	keep_state(p);
	p->tw_at = step;
	if ((st = pipeline_step(p, 1)) == 0)
		p->at = step + 1;
	return st;
}

/*
 * Copies the flock as frame k shows it into slot d: the live state on a
 * step, else the state `part` step_den-ths of the way from the kept step
 * (p->tw) to the live one, positions and velocities alike (a wrapping
 * model's boid that crossed an edge goes the short way round); the target
 * likewise.  Velocities only when the drawing needs them (vel).
 */
static void frame_state(struct pipeline *p, struct slot_data *d, long part, int vel)
{
	const struct sim *m = p->sim;
	size_t n = m->n, bytes = n * sizeof(double);
	double *to[6] = { d->x, d->y, d->vx, d->vy, d->z, d->vz };
	const double *now[6] = { m->x, m->y, m->vx, m->vy, m->z, m->vz };
	int wraps = sim_wraps(m), cols = m->z ? 6 : 4;
	double span[6] = { wraps ? m->p.width : 0, wraps ? m->p.height : 0, 0, 0, wraps ? m->p.depth : 0, 0 };
	double t = (double)part / (double)p->cfg->run.step_den;

	d->has_target = sim_target_box(m, &d->target_x, &d->target_y, &d->target_z);
	for (int c = 0; c < cols; c++) {
		if (!vel && (c == 2 || c == 3 || c == 5))
			continue;
		if (!part)
			memcpy(to[c], now[c], bytes);
		else
			tween_lerp(to[c], p->tw + (size_t)c * n, now[c], n, t, span[c]);
	}
	if (part) {
		double was[3], at[3] = { d->target_x, d->target_y, d->target_z };
		sim_target_back(m, 1, &was[0], &was[1], &was[2]);
		tween_lerp(was, was, at, 3, t, 0);
		d->target_x = was[0], d->target_y = was[1], d->target_z = was[2];
	}
}

/*
 * What frame k shows, into slot d (producer thread, frames in order): its
 * window, the boids it shows (framing.h: on a step all of them, unless a
 * window shows a small part of a plane's flock; between two steps all of
 * them, interpolated by frame_state(), `part` of the way) and the view the
 * drawing thread draws, with --draw density's bounds for the clip.
 * Velocities only when the drawing needs them (vel).  0 or -errno.
 */
static int frame_of(struct pipeline *p, struct slot_data *d, long k, long part, int vel)
{
	struct render_window w;
	struct framing_copy c = { d->x, d->y, d->vx, d->vy, d->z, d->vz, .velocities = vel };
	int err = framing_window(&p->framing, p->sim, k, &w);

	if (err)
		return err;
	if (part) { /* between two steps: every boid, as they are drawn there */
		frame_state(p, d, part, vel);
		c.n = p->sim->n;
		c.predators = p->sim->p.predators < c.n ? p->sim->p.predators : c.n;
	} else {
		if ((err = framing_copy(&p->framing, p->sim, k, &w, d->renderer, &c)) != 0)
			return err;
		d->has_target = sim_target_box(p->sim, &d->target_x, &d->target_y, &d->target_z);
	}
	d->shown = (struct render_view){ .n = c.n, .predators = c.predators, .x = d->x, .y = d->y,
	                                 .vx = d->vx, .vy = d->vy, .z = d->z, .vz = d->vz, .frame = k,
	                                 .window = w, .has_speed_range = c.has_speed_range,
	                                 .speed_lo = c.speed_lo, .speed_hi = c.speed_hi, .has_fog = c.has_fog,
	                                 .fog = c.fog };
	return framing_density(&p->framing, d->renderer, &d->shown);
}

/*
 * Producer: steps the flock and hands a copy of each frame's state on.
 * Stops early on a signal or a failure elsewhere, then closes the queue at
 * the frames it made, so the later stages finish those and no more.  The
 * trajectory and metrics record the frames that fall on a step.
 */
static void *produce(void *arg)
{
	struct pipeline *p = arg;
	const struct run_options *s = &p->cfg->run;
	int vel = render_needs_velocities(&p->cfg->render); /* else their pages stay untouched */
	long k;

	for (k = 0; k < s->frames; k++) {
		if (signals_caught() || has_failed(p))
			break;
		p->stepping = k;
		long part;
		int st = reach_frame(p, k, 1, &part);
		if (st == EXIT_FAILURE)
			stage_failed(p, NULL, NULL, 0);
		if (st)
			break; /* failed, or a signal: frame k is not made */
		if (!part)
			outputs_record(p->out, p->sim, k);
		struct frameq_slot *slot = frameq_get_empty(p->queue);
		if (!slot)
			break;
		struct slot_data *d = slot->user;
		int err = frame_of(p, d, k, part, vel);
		if (err) { /* the queue is abandoned: the slot goes with it */
			stage_failed(p, "cannot draw a frame of", p->cfg->run.output, err);
			break;
		}
		push_trail(p, d);
		copy_trail(p, d);
		slot->frame = k;
		frameq_put_stepped(p->queue, slot);
	}
	frameq_close(p->queue, k);
	return NULL;
}

/* Writes a drawn frame as a PNG; a failure stops every stage.  Returns 0 or -1. */
static int write_png(struct pipeline *p, struct renderer *rd, long frame)
{
	char name[4096];
	const char *what;
	int stride;
	const unsigned char *px = render_pixels(rd, &stride);
	int err = outputs_write_png(p->out, px, stride, frame, &what, name, sizeof(name));

	if (err) {
		stage_failed(p, what, name, err);
		return -1;
	}
	return 0;
}

/* Drawer: draws stepped frames, any order; PNG output is written here too. */
static void *draw(void *arg)
{
	struct pipeline *p = arg;
	struct frameq_slot *slot;

	while ((slot = frameq_get_stepped(p->queue))) {
		struct slot_data *d = slot->user;
		struct render_view v = d->shown; /* with the trail and the target as the producer left them */
		v.trail_len = d->trail_len;
		v.trail_x = d->trail_x;
		v.trail_y = d->trail_y;
		v.trail_z = d->trail_z;
		v.has_target = d->has_target;
		v.target_x = d->target_x;
		v.target_y = d->target_y;
		v.target_z = d->target_z;
		if (!outputs_draws(p->out, slot->frame) || (p->video && signals_caught())) {
			/* not the poster, or a stopped video (the frame is dropped): nothing to draw */
			frameq_put_drawn(p->queue, slot);
			continue;
		}
		int err = render_frame(d->renderer, &v);
		if (err == -EINTR && signals_caught()) { /* stopped in its middle: no frame, dropped */
			frameq_put_drawn(p->queue, slot);
			continue;
		}
		if (err) {
			stage_failed(p, "cannot draw a frame of", p->cfg->run.output, err);
			break;
		}
		if (p->caption) { /* on the finished picture (the renderer's pixels until its next frame) */
			int stride;
			unsigned char *px = (unsigned char *)render_pixels(d->renderer, &stride);
			if (caption_draw(p->caption, px, stride, p->cfg->render.width, p->cfg->render.height,
			                 slot->frame) != 0) {
				stage_failed(p, "cannot draw the caption on a frame of", p->cfg->run.output, -EIO);
				break;
			}
		}
		if ((p->out->kind == OUTPUTS_PNG || p->out->kind == OUTPUTS_STILL) &&
		    write_png(p, d->renderer, slot->frame) != 0)
			break;
		if (d->pic) { /* convert here, in parallel, so the encoder only encodes */
			int stride;
			const unsigned char *px = render_pixels(d->renderer, &stride);
			if ((err = video_picture_fill(d->pic, px, stride)) != 0) {
				stage_failed(p, "cannot convert a frame of", p->cfg->run.output, err);
				break;
			}
		}
		frameq_put_drawn(p->queue, slot);
	}
	return NULL;
}

static void free_slots(struct pipeline *p)
{
	if (!p->queue)
		return;
	for (int i = 0; i < frameq_size(p->queue); i++) {
		struct slot_data *d = frameq_slot(p->queue, i)->user;
		if (!d)
			continue;
		render_free(d->renderer);
		video_picture_free(d->pic);
		free(d->trail_x);
		free(d->x);
		free(d);
	}
	frameq_free(p->queue);
	p->queue = NULL;
}

/* Makes the queue: a few slots per drawer, each with a renderer. */
static int make_slots(struct pipeline *p, const struct render_params *rp)
{
	size_t n = p->sim->n, per = p->sim->z ? 3 : 2; /* coordinates: x, y (and z in 3D) */

	if (p->cfg->run.trail > 1) {
		size_t cells = (size_t)p->cfg->run.trail * (n ? n : 1);
		if (!(p->hist_x = malloc(per * cells * sizeof(double))))
			return -ENOMEM;
		p->hist_y = p->hist_x + cells;
		p->hist_z = per == 3 ? p->hist_x + 2 * cells : NULL;
	}
	if (p->cfg->run.step_den > 1 && !(p->tw = malloc(2 * per * (n ? n : 1) * sizeof(double))))
		return -ENOMEM; /* a frame may fall between two steps */
	p->queue = frameq_new(p->drawers + 3);
	if (!p->queue)
		return -ENOMEM;
	for (int i = 0; i < frameq_size(p->queue); i++) {
		struct slot_data *d = calloc(1, sizeof(*d));
		frameq_slot(p->queue, i)->user = d;
		if (!d || !(d->x = malloc(2 * per * (n ? n : 1) * sizeof(double))))
			return -ENOMEM;
		d->y = d->x + n;
		d->vx = d->x + 2 * n;
		d->vy = d->x + 3 * n;
		if (per == 3) {
			d->z = d->x + 4 * n;
			d->vz = d->x + 5 * n;
		}
		if (p->cfg->run.trail > 1) {
			size_t cells = (size_t)p->cfg->run.trail * (n ? n : 1);
			if (!(d->trail_x = malloc(per * cells * sizeof(double))))
				return -ENOMEM;
			d->trail_y = d->trail_x + cells;
			d->trail_z = per == 3 ? d->trail_x + 2 * cells : NULL;
		}
		int err = render_new(&d->renderer, rp);
		if (err)
			return err;
		render_watch(d->renderer, watch_frame, NULL); /* a stop signal ends a long frame in its middle */
	}
	return 0;
}

enum progress_mode pipeline_progress_mode(const struct run_options *s)
{
	int tty = isatty(STDERR_FILENO);

	switch (s->progress) {
	case RUN_PROGRESS_AUTO:
		return tty && !s->quiet ? PROGRESS_BAR : PROGRESS_OFF;
	case RUN_PROGRESS_ALWAYS:
		return tty ? PROGRESS_BAR : PROGRESS_LINES;
	case RUN_PROGRESS_LINES:
		return PROGRESS_LINES;
	case RUN_PROGRESS_JSON:
		return PROGRESS_JSON;
	default:
		return PROGRESS_OFF;
	}
}

/* Steps the flock in this thread: no pictures, nothing to hand on. */
static int run_inline(struct pipeline *p, struct progress *bar)
{
	const struct run_options *s = &p->cfg->run;

	for (long k = 0; k < s->frames && !signals_caught(); k++) {
		p->stepping = k;
		long part;
		int st = reach_frame(p, k, 0, &part);
		if (st)
			return st == EXIT_FAILURE ? st : 0; /* a signal: frame k is not made */
		if (!part) /* the frames on a step, as when drawing */
			outputs_record(p->out, p->sim, k);
		p->frames_done = k + 1;
		progress_update(bar, p->frames_done);
	}
	return 0;
}

/*
 * Starts the producer and the drawers with the stop signals blocked (the
 * threads inherit the mask: signals stay with the main thread).  Returns
 * the drawers started, or -1 when not even the producer could start.
 */
static int start_threads(struct pipeline *p, pthread_t *producer, pthread_t *drawer)
{
	struct failure f;
	int started = 0;

	signals_block(1);
	if (pthread_create(producer, NULL, produce, p) != 0) {
		signals_block(0);
		failure_runtime(&f, "cannot start a thread");
		outputs_failed(p->out, OUTPUTS_RUN, &f);
		return -1;
	}
	for (; started < p->drawers; started++)
		if (pthread_create(&drawer[started], NULL, draw, p) != 0)
			break;
	signals_block(0);
	if (started == 0) {
		stage_failed(p, NULL, NULL, 0);
		failure_runtime(&f, "cannot start a thread");
		outputs_failed(p->out, OUTPUTS_RUN, &f);
	}
	return started;
}

/* The consumer, in this thread: encodes the drawn frames in order. */
static void encode_in_order(struct pipeline *p, struct progress *bar)
{
	struct frameq_slot *slot;

	while ((slot = frameq_get_drawn(p->queue))) {
		if (p->video && signals_caught()) {
			/* a stop: what the encoder has is drained (for a while) at
			 * close; frames not yet in it are dropped, not encoded */
			frameq_put_empty(p->queue, slot);
			continue;
		}
		if (p->video) {
			struct slot_data *d = slot->user;
			int err = video_write_picture(p->video, d->pic);
			if (err) {
				frameq_put_empty(p->queue, slot);
				stage_failed(p, "cannot write", p->cfg->run.output, err);
				break;
			}
		}
		frameq_put_empty(p->queue, slot);
		p->frames_done++;
		progress_update(bar, p->frames_done);
	}
}

int pipeline_run(struct pipeline *p, struct progress *bar)
{
	pthread_t producer, drawer[PIPELINE_DRAW_MAX];

	if (!p->queue)
		return run_inline(p, bar);
	int started = start_threads(p, &producer, drawer);
	if (started < 0)
		return EXIT_FAILURE;
	encode_in_order(p, bar);
	pthread_join(producer, NULL);
	for (int i = 0; i < started; i++)
		pthread_join(drawer[i], NULL);
	return p->failed;
}

int pipeline_init(struct pipeline *p, const struct config *c, struct sim *sim,
                  struct outputs *out, const struct render_params *rp, int drawers)
{
	memset(p, 0, sizeof(*p));
	p->cfg = c;
	p->sim = sim;
	p->out = out;
	p->drawers = drawers < 1 ? 1 : drawers > PIPELINE_DRAW_MAX ? PIPELINE_DRAW_MAX : drawers;
	p->tw_at = -1;
	pthread_mutex_init(&p->fail_lock, NULL);
	framing_init(&p->framing, c, sim);
	sim_watch(sim, watch_step, p); /* a stop signal ends a step in its middle */
	return out->kind == OUTPUTS_NONE ? 0 : make_slots(p, rp);
}

int pipeline_use_video(struct pipeline *p, struct video *v)
{
	p->video = v;
	for (int i = 0; p->queue && i < frameq_size(p->queue); i++) {
		struct slot_data *d = frameq_slot(p->queue, i)->user;
		int err = video_picture_new(v, &d->pic);
		if (err)
			return err;
	}
	return 0;
}

void pipeline_release(struct pipeline *p)
{
	if (p->sim)
		sim_watch(p->sim, NULL, NULL);
	free_slots(p);
	framing_release(&p->framing);
	free(p->tw);
	p->tw = NULL;
	free(p->hist_x);
	p->hist_x = p->hist_y = p->hist_z = NULL;
	pthread_mutex_destroy(&p->fail_lock);
}

/* ---------------------------------------------------------------- threads */

void pipeline_threads(const struct config *c, struct pipeline_threads *t)
{
	long n = c->run.threads > 0 ? c->run.threads : sysconf(_SC_NPROCESSORS_ONLN);

	memset(t, 0, sizeof(*t));
	t->from_option = c->run.threads > 0;
	t->sim = n > 0 ? (int)n : 1;
	t->draw = t->sim;
	if (t->draw > PIPELINE_DRAW_MAX) {
		t->draw = PIPELINE_DRAW_MAX;
		t->capped = 1;
	}
	t->encoder = c->video.threads; /* 0: auto */
	t->encoder_given = c->run.user.encoder_threads;
}

void pipeline_threads_describe(const struct pipeline_threads *t, enum outputs_kind kind,
                               char *buf, size_t len)
{
	const char *why = t->from_option ? "--threads" : "one per core";
	char draw[80], enc[64];

	if (kind == OUTPUTS_NONE)
		snprintf(draw, sizeof(draw), "no drawing (--no-render)");
	else if (t->capped)
		snprintf(draw, sizeof(draw), "%d drawing (%s, at most %d)", t->draw, why,
		         PIPELINE_DRAW_MAX);
	else
		snprintf(draw, sizeof(draw), "%d drawing (%s)", t->draw, why);
	if (kind != OUTPUTS_VIDEO && kind != OUTPUTS_STDOUT)
		snprintf(enc, sizeof(enc), "no encoder");
	else if (t->encoder)
		snprintf(enc, sizeof(enc), "encoder %d (%s)", t->encoder,
		         t->encoder_given ? "--encoder-threads" : "the default, the same bytes on every machine");
	else
		snprintf(enc, sizeof(enc), "encoder auto (--encoder-threads auto: its choice)");
	snprintf(buf, len, "%d simulation (%s), %s, %s", t->sim, why, draw, enc);
}
