/*
 * frameq — a bounded set of frame slots flowing through the pipeline:
 *
 *   empty --producer--> stepped --drawers, any order--> drawn --consumer,
 *   in frame order--> empty
 *
 * The producer steps the flock and copies the state into a slot; drawer
 * threads draw stepped slots in parallel, in whatever order they come; the
 * consumer encodes drawn slots strictly in frame order.  A fixed number of
 * slots keeps memory bounded whatever the frame count, and a slow stage
 * holds the earlier ones back.  What a slot carries is the caller's business
 * (`user`); frameq only moves it along.
 *
 * frameq_close(q, end) says no frame >= end will come: once the frames
 * before `end` are through, the get calls return NULL.  end = -1 abandons
 * at once (an error somewhere): every get returns NULL straight away.
 */
#ifndef BOIDS_FRAMEQ_H
#define BOIDS_FRAMEQ_H

struct frameq_slot {
	long frame;   /* frame number, set by the producer */
	void *user;   /* the caller's per-slot data */
	int state;    /* private */
};

struct frameq;

/* Makes nslots empty slots (nslots >= 1).  Returns NULL when out of memory. */
struct frameq *frameq_new(int nslots);

int frameq_size(const struct frameq *q);

/* Slot i, 0 <= i < frameq_size(q), for per-slot setup and teardown. */
struct frameq_slot *frameq_slot(struct frameq *q, int i);

/* Producer: blocks for an empty slot; NULL once closed. */
struct frameq_slot *frameq_get_empty(struct frameq *q);
void frameq_put_stepped(struct frameq *q, struct frameq_slot *s);

/* Drawers: block for a stepped slot (any frame); NULL when none can come. */
struct frameq_slot *frameq_get_stepped(struct frameq *q);
void frameq_put_drawn(struct frameq *q, struct frameq_slot *s);

/* Consumer: blocks for the next frame in order; NULL when none can come. */
struct frameq_slot *frameq_get_drawn(struct frameq *q);
void frameq_put_empty(struct frameq *q, struct frameq_slot *s);

/* Ends the stream after frame end-1, or abandons it (end = -1). */
void frameq_close(struct frameq *q, long end);

/* Frees the queue; frameq_free(NULL) does nothing. */
void frameq_free(struct frameq *q);

#endif
