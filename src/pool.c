/*
 * pool — persistent worker threads handing out tasks from a shared counter.
 *
 * Each pool_run() is a "generation": the caller publishes the job, bumps the
 * generation and wakes the workers; every thread, the caller included, takes
 * task numbers from an atomic counter until they run out; the caller waits
 * until every worker has reported back before returning.
 */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct pool {
	int threads;            /* workers + the caller */
	pthread_t *tid;         /* workers */
	pthread_mutex_t lock;
	pthread_cond_t wake;    /* a new generation or shutdown */
	pthread_cond_t done;    /* a worker finished its part */
	unsigned long gen;      /* generation number, guarded by lock */
	int busy;               /* workers still in this generation */
	int stop;               /* set once by pool_free */
	pool_task_fn *fn;       /* the current job */
	void *ctx;
	size_t ntasks;
	atomic_size_t next;     /* next task to hand out */
};

static void drain(struct pool *p)
{
	size_t t;

	while ((t = atomic_fetch_add(&p->next, 1)) < p->ntasks)
		p->fn(p->ctx, t);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	unsigned long seen = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->gen == seen)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->stop)
			break;
		seen = p->gen;
		pthread_mutex_unlock(&p->lock);
		drain(p);
		pthread_mutex_lock(&p->lock);
		if (--p->busy == 0)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct pool *pool_new(int threads)
{
	struct pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (threads < 1)
		threads = 1;
	p->tid = calloc((size_t)threads, sizeof(*p->tid));
	if (!p->tid) {
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->done, NULL);
	p->threads = 1;
	for (int i = 1; i < threads; i++) {
		if (pthread_create(&p->tid[i - 1], NULL, worker, p) != 0)
			break; /* run with the threads we got */
		p->threads++;
	}
	return p;
}

void pool_run(struct pool *p, pool_task_fn *fn, void *ctx, size_t ntasks)
{
	if (p->threads == 1 || ntasks <= 1) {
		for (size_t t = 0; t < ntasks; t++)
			fn(ctx, t);
		return;
	}
	pthread_mutex_lock(&p->lock);
	p->fn = fn;
	p->ctx = ctx;
	p->ntasks = ntasks;
	atomic_store(&p->next, 0);
	p->busy = p->threads - 1;
	p->gen++;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);

	drain(p);

	pthread_mutex_lock(&p->lock);
	while (p->busy > 0)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

int pool_threads(const struct pool *p)
{
	return p->threads;
}

void pool_free(struct pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < p->threads - 1; i++)
		pthread_join(p->tid[i], NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->done);
	free(p->tid);
	free(p);
}
