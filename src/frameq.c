/*
 * frameq — bounded, ordered hand-over of frame slots; see include/frameq.h.
 * One mutex and one condition variable: the traffic is a few hand-overs a
 * frame, so simplicity wins over finer locking.
 */
#include "frameq.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

enum { EMPTY, BUSY, STEPPED, DRAWN };

struct frameq {
	int n;
	struct frameq_slot *slots;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	long next;     /* the frame the consumer wants next */
	long end;      /* frames before this one still come; LONG_MAX while open */
	int abandoned; /* closed with end = -1 */
};

struct frameq *frameq_new(int nslots)
{
	struct frameq *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	if (nslots < 1)
		nslots = 1;
	q->slots = calloc((size_t)nslots, sizeof(*q->slots));
	if (!q->slots) {
		free(q);
		return NULL;
	}
	q->n = nslots;
	for (int i = 0; i < nslots; i++)
		q->slots[i].frame = -1;
	q->end = LONG_MAX;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->changed, NULL);
	return q;
}

int frameq_size(const struct frameq *q)
{
	return q->n;
}

struct frameq_slot *frameq_slot(struct frameq *q, int i)
{
	return &q->slots[i];
}

/* Finds a slot in `state` (and of frame `frame` unless -1); lock held. */
static struct frameq_slot *find(struct frameq *q, int state, long frame)
{
	for (int i = 0; i < q->n; i++)
		if (q->slots[i].state == state && (frame < 0 || q->slots[i].frame == frame))
			return &q->slots[i];
	return NULL;
}

static void set_state(struct frameq *q, struct frameq_slot *s, int state)
{
	pthread_mutex_lock(&q->lock);
	s->state = state;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
}

struct frameq_slot *frameq_get_empty(struct frameq *q)
{
	struct frameq_slot *s = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->abandoned && q->end == LONG_MAX && !(s = find(q, EMPTY, -1)))
		pthread_cond_wait(&q->changed, &q->lock);
	if (s)
		s->state = BUSY;
	pthread_mutex_unlock(&q->lock);
	return s;
}

void frameq_put_stepped(struct frameq *q, struct frameq_slot *s)
{
	set_state(q, s, STEPPED);
}

struct frameq_slot *frameq_get_stepped(struct frameq *q)
{
	struct frameq_slot *s = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->abandoned && !(s = find(q, STEPPED, -1)) && q->end == LONG_MAX)
		pthread_cond_wait(&q->changed, &q->lock);
	if (q->abandoned)
		s = NULL;
	if (s)
		s->state = BUSY;
	pthread_mutex_unlock(&q->lock);
	return s;
}

void frameq_put_drawn(struct frameq *q, struct frameq_slot *s)
{
	set_state(q, s, DRAWN);
}

struct frameq_slot *frameq_get_drawn(struct frameq *q)
{
	struct frameq_slot *s = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->abandoned && q->next < q->end && !(s = find(q, DRAWN, q->next)))
		pthread_cond_wait(&q->changed, &q->lock);
	if (q->abandoned)
		s = NULL;
	if (s) {
		s->state = BUSY;
		q->next++;
	}
	pthread_mutex_unlock(&q->lock);
	return s;
}

void frameq_put_empty(struct frameq *q, struct frameq_slot *s)
{
	set_state(q, s, EMPTY);
}

void frameq_close(struct frameq *q, long end)
{
	pthread_mutex_lock(&q->lock);
	if (end < 0)
		q->abandoned = 1;
	else if (end < q->end)
		q->end = end;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
}

void frameq_free(struct frameq *q)
{
	if (!q)
		return;
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->changed);
	free(q->slots);
	free(q);
}
