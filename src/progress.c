/*
 * progress — progress reports on stderr; see include/progress.h.
 */
#include "progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, FILE *f, enum progress_mode mode, long total,
                    double interval)
{
	p->f = f;
	p->mode = mode;
	p->total = total > 0 ? total : 1;
	p->interval = interval > 0 ? interval : 1;
	p->start = progress_now();
	p->drawn = -1;
	p->last = -1;
	p->last_step = -1;
	p->moved = p->start;
	p->warmup = 0;
	p->warm_done = 0;
	p->warm_end = -1;
	p->frame_steps = 1;
	pthread_mutex_init(&p->lock, NULL);
}

int progress_columns(int fd)
{
	struct winsize ws;

	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *env = getenv("COLUMNS");
	if (env) {
		char *end;
		long c = strtol(env, &end, 10);
		if (end != env && !*end && c > 0 && c < 10000)
			return (int)c;
	}
	return 80;
}

/* Whether the warm-up's steps are being made (the frames have not begun). */
static int warming(const struct progress *p)
{
	return p->warmup > 0 && p->warm_end < 0;
}

/* When the frames began: the warm-up's end, or the start without one. */
static double frames_began(const struct progress *p)
{
	return p->warm_end >= 0 ? p->warm_end : p->start;
}

/*
 * The rate so far and the time left.  Frames: frames a second since the
 * frames began, and the frames left at that rate.  In the warm-up: steps a
 * second, and the steps left plus every frame's steps at that rate (the
 * drawing overlaps the stepping, so steps are what a frame costs at least).
 */
static void rates(const struct progress *p, long done, double now, double *rate, double *left)
{
	if (warming(p)) {
		double t = now - p->start;
		*rate = t > 0 ? (double)p->warm_done / t : 0;
		double steps = (double)(p->warmup - p->warm_done) + (double)p->total * p->frame_steps;
		*left = *rate > 0 ? steps / *rate : 0;
		return;
	}
	double t = now - frames_began(p);
	*rate = t > 0 ? (double)done / t : 0;
	*left = *rate > 0 ? (double)(p->total - done) / *rate : 0;
}

/* The bar's words: the phase, what is done of it, and the rate or the step in progress. */
static void bar_text(const struct progress *p, long done, double rate, double left, double step,
                     char *text, size_t len)
{
	int secs = (int)(left + 0.5);

	if (warming(p) && step >= 0)
		snprintf(text, len, " warm-up %ld/%ld steps  step %ld %.1f%% done", p->warm_done, p->warmup,
		         p->warm_done + 1, 100 * step);
	else if (warming(p))
		snprintf(text, len, " warm-up %ld/%ld steps  %.1f steps/s  ETA %d:%02d", p->warm_done,
		         p->warmup, rate, secs / 60, secs % 60);
	else if (step >= 0)
		snprintf(text, len, " %ld/%ld frames  frame %ld %.1f%% stepped", done, p->total, done + 1,
		         100 * step);
	else
		snprintf(text, len, " %ld/%ld frames  %.1f fps  ETA %d:%02d", done, p->total, rate,
		         secs / 60, secs % 60);
}

/* step: the fraction of the next step done, or < 0 between steps */
static void draw_bar(struct progress *p, long done, double rate, double left, double step)
{
	char text[128], line[512];

	bar_text(p, done, rate, left, step, text, sizeof text);
	/* Leave the last column free: writing into it makes some terminals wrap. */
	int cols = progress_columns(fileno(p->f)) - 1;
	if (cols >= (int)sizeof line)
		cols = (int)sizeof line - 1;
	int tlen = (int)strlen(text);
	int bar = cols - tlen - 2;
	int n = 0;
	if (bar >= 5) { /* room for a bar worth the name */
		if (bar > 40)
			bar = 40;
		double part = warming(p) ? (double)p->warm_done / (double)p->warmup :
		              (double)done / (double)p->total;
		int fill = (int)((double)bar * part);
		line[n++] = '[';
		for (int i = 0; i < bar; i++)
			line[n++] = i < fill ? '#' : '-';
		line[n++] = ']';
		memcpy(line + n, text, (size_t)tlen);
		n += tlen;
	} else { /* narrow: the numbers alone, cut to fit */
		const char *t = text + 1;
		int len = tlen - 1 < cols ? tlen - 1 : (cols > 0 ? cols : 0);
		memcpy(line, t, (size_t)len);
		n = len;
	}
	line[n] = 0;
	fprintf(p->f, "\r%s\033[K", line);
	fflush(p->f);
}

/* Seconds between two reports: a tenth for the bar, else the interval. */
static double due_after(const struct progress *p)
{
	return p->mode == PROGRESS_BAR ? 0.1 : p->interval;
}

/* Whether a report is due now; the end is always due. */
static int due_now(const struct progress *p, double now, int end)
{
	double due = due_after(p);

	if (!end && p->drawn >= 0 && now - p->drawn < due)
		return 0;
	if (!end && p->drawn < 0 && p->mode != PROGRESS_BAR && now - p->start < due)
		return 0; /* the first line after one interval, not at frame 1 */
	return 1;
}

/* The warm-up's plain line or JSON object (see write_report()). */
static void write_warmup(struct progress *p, double now, double rate, double left, double step)
{
	int secs = (int)(left + 0.5), pct = (int)(100.0 * (double)p->warm_done / (double)p->warmup);

	if (p->mode == PROGRESS_LINES && step >= 0)
		fprintf(p->f, "boids: warm-up %ld/%ld steps (%d%%), step %ld %.1f%% done, %.0f s so far\n",
		        p->warm_done, p->warmup, pct, p->warm_done + 1, 100 * step, now - p->start);
	else if (p->mode == PROGRESS_LINES)
		fprintf(p->f, "boids: warm-up %ld/%ld steps (%d%%), %.1f steps/s, %d:%02d left\n",
		        p->warm_done, p->warmup, pct, rate, secs / 60, secs % 60);
	if (p->mode != PROGRESS_JSON)
		return;
	fprintf(p->f, "{\"event\":\"progress\",\"phase\":\"warm-up\",\"warmup\":%ld,\"warmup_total\":%ld,"
	        "\"sps\":%.3f,\"frame\":0,\"total\":%ld,\"fps\":0,\"elapsed\":%.3f,\"eta\":%.3f",
	        p->warm_done, p->warmup, rate, p->total, now - p->start, left);
	if (step >= 0)
		fprintf(p->f, ",\"step\":%.3f", step);
	fputs("}\n", p->f);
}

/* Writes one report; step < 0 between steps, else the fraction of the next one done. */
static void write_report(struct progress *p, long done, double now, double step)
{
	double rate, left;

	rates(p, done, now, &rate, &left);
	int secs = (int)(left + 0.5), pct = (int)(100.0 * (double)done / (double)p->total);
	if (p->mode == PROGRESS_OFF)
		return;
	if (p->mode == PROGRESS_BAR) {
		draw_bar(p, done, rate, left, step);
		return;
	}
	flockfile(p->f); /* one line, whole, whatever another thread reports meanwhile (report.c) */
	if (warming(p))
		write_warmup(p, now, rate, left, step);
	else if (p->mode == PROGRESS_LINES && step >= 0)
		fprintf(p->f, "boids: %ld/%ld frames (%d%%), frame %ld %.1f%% stepped, %.0f s so far\n",
		        done, p->total, pct, done + 1, 100 * step, now - p->start);
	else if (p->mode == PROGRESS_LINES)
		fprintf(p->f, "boids: %ld/%ld frames (%d%%), %.1f fps, %d:%02d left\n", done,
		        p->total, pct, rate, secs / 60, secs % 60);
	else {
		fprintf(p->f, "{\"event\":\"progress\",\"frame\":%ld,\"total\":%ld,\"fps\":%.3f,\"elapsed\":%.3f,"
		        "\"eta\":%.3f,\"phase\":\"frames\"", done, p->total, rate, now - p->start, left);
		if (step >= 0)
			fprintf(p->f, ",\"step\":%.3f", step);
		fputs("}\n", p->f);
	}
	fflush(p->f);
	funlockfile(p->f);
}

void progress_warmup_start(struct progress *p, long steps, double frame_steps)
{
	p->warmup = steps > 0 ? steps : 0;
	p->warm_done = 0;
	p->warm_end = -1;
	p->frame_steps = frame_steps > 0 ? frame_steps : 1;
}

void progress_warmup(struct progress *p, long done)
{
	pthread_mutex_lock(&p->lock); /* counted in every mode: the closing line says it */
	p->warm_done = done;
	double now = progress_now();
	p->moved = now;
	if (p->mode != PROGRESS_OFF && due_now(p, now, done >= p->warmup)) { /* its end always */
		p->drawn = now;
		p->last_step = -1;
		write_report(p, 0, now, -1);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_warmup_end(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	if (p->warmup > 0 && p->warm_end < 0)
		p->warm_end = progress_now();
	pthread_mutex_unlock(&p->lock);
}

double progress_warmup_seconds(const struct progress *p)
{
	if (p->warmup <= 0)
		return 0;
	return (p->warm_end >= 0 ? p->warm_end : progress_now()) - p->start;
}

void progress_update(struct progress *p, long done)
{
	if (p->mode == PROGRESS_OFF)
		return;
	pthread_mutex_lock(&p->lock);
	double now = progress_now();
	p->moved = now;
	if (due_now(p, now, done >= p->total) && done != p->last) {
		p->drawn = now;
		p->last = done;
		p->last_step = -1;
		write_report(p, done, now, -1);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_step(struct progress *p, long done, double fraction)
{
	if (p->mode == PROGRESS_OFF || pthread_mutex_trylock(&p->lock) != 0)
		return; /* another thread is writing one: never wait for it */
	double now = progress_now();
	int permille = (int)(1000 * fraction);
	/* only a step that lasts: while whole steps or frames come, their reports are due */
	if (due_now(p, now, 0) && permille != p->last_step &&
	    now - p->moved >= due_after(p)) {
		p->drawn = now;
		p->last_step = permille;
		write_report(p, done, now, fraction);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_end(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	if (p->mode == PROGRESS_BAR && p->drawn >= 0) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
	}
	pthread_mutex_unlock(&p->lock);
}
