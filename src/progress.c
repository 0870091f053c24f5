/*
 * progress — terminal progress bar; see include/progress.h.
 */
#include "progress.h"

#include <time.h>

double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, FILE *f, int enabled, long total)
{
	p->f = f;
	p->enabled = enabled;
	p->total = total > 0 ? total : 1;
	p->start = progress_now();
	p->drawn = -1;
}

void progress_update(struct progress *p, long done)
{
	enum { BAR = 30 };
	char bar[BAR + 1];

	if (!p->enabled)
		return;
	double now = progress_now();
	if (done < p->total && now - p->drawn < 0.1)
		return;
	p->drawn = now;
	double t = now - p->start;
	double fps = t > 0 ? (double)done / t : 0;
	double left = fps > 0 ? (double)(p->total - done) / fps : 0;
	int fill = (int)((double)BAR * (double)done / (double)p->total);
	for (int i = 0; i < BAR; i++)
		bar[i] = i < fill ? '#' : '-';
	bar[BAR] = 0;
	fprintf(p->f, "\r[%s] %ld/%ld frames  %.1f fps  ETA %d:%02d \033[K",
	        bar, done, p->total, fps, (int)left / 60, (int)left % 60);
	fflush(p->f);
}

void progress_end(struct progress *p)
{
	if (p->enabled && p->drawn >= 0) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
	}
}
