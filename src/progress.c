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

/* The rate so far and the time left, from frames done and seconds spent. */
static void rates(const struct progress *p, long done, double now, double *fps, double *left)
{
	double t = now - p->start;
	*fps = t > 0 ? (double)done / t : 0;
	*left = *fps > 0 ? (double)(p->total - done) / *fps : 0;
}

/* step: the fraction of the next frame's step done, or < 0 between steps */
static void draw_bar(struct progress *p, long done, double fps, double left, double step)
{
	char text[128], line[512];
	int secs = (int)(left + 0.5);

	if (step >= 0)
		snprintf(text, sizeof text, " %ld/%ld frames  frame %ld %.1f%% stepped", done, p->total,
		         done + 1, 100 * step);
	else
		snprintf(text, sizeof text, " %ld/%ld frames  %.1f fps  ETA %d:%02d", done, p->total,
		         fps, secs / 60, secs % 60);
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
		int fill = (int)((double)bar * (double)done / (double)p->total);
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

/* Whether a report is due now; the end is always due. */
static int due_now(const struct progress *p, double now, int end)
{
	double due = p->mode == PROGRESS_BAR ? 0.1 : p->interval;

	if (!end && p->drawn >= 0 && now - p->drawn < due)
		return 0;
	if (!end && p->drawn < 0 && p->mode != PROGRESS_BAR && now - p->start < due)
		return 0; /* the first line after one interval, not at frame 1 */
	return 1;
}

/* Writes one report; step < 0 between steps, else the fraction of the next one done. */
static void write_report(struct progress *p, long done, double now, double step)
{
	double fps, left;

	rates(p, done, now, &fps, &left);
	int secs = (int)(left + 0.5), pct = (int)(100.0 * (double)done / (double)p->total);
	switch (p->mode) {
	case PROGRESS_BAR:
		draw_bar(p, done, fps, left, step);
		return;
	case PROGRESS_LINES:
		if (step >= 0)
			fprintf(p->f, "boids: %ld/%ld frames (%d%%), frame %ld %.1f%% stepped, %.0f s so far\n",
			        done, p->total, pct, done + 1, 100 * step, now - p->start);
		else
			fprintf(p->f, "boids: %ld/%ld frames (%d%%), %.1f fps, %d:%02d left\n", done,
			        p->total, pct, fps, secs / 60, secs % 60);
		break;
	case PROGRESS_JSON:
		flockfile(p->f); /* one line, whole, whatever another thread reports meanwhile */
		fprintf(p->f, "{\"event\":\"progress\",\"frame\":%ld,\"total\":%ld,\"fps\":%.3f,\"elapsed\":%.3f,\"eta\":%.3f",
		        done, p->total, fps, now - p->start, left);
		if (step >= 0)
			fprintf(p->f, ",\"step\":%.3f", step);
		fputs("}\n", p->f);
		funlockfile(p->f);
		break;
	case PROGRESS_OFF:
		return;
	}
	fflush(p->f);
}

void progress_update(struct progress *p, long done)
{
	if (p->mode == PROGRESS_OFF)
		return;
	pthread_mutex_lock(&p->lock);
	double now = progress_now();
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
	if (due_now(p, now, 0) && permille != p->last_step) {
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
