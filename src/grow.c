/*
 * grow — room in a heap array; see include/grow.h.
 */
#include "grow.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int grow_to(void *buf, size_t n, size_t size)
{
	void **p = buf;

	if (size && n > SIZE_MAX / size)
		return -ENOMEM;
	void *q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

int grow(void *buf, size_t *cap, size_t want, size_t room, size_t size)
{
	if (want <= *cap)
		return 0;
	assert(room >= want);
	if (grow_to(buf, room, size) != 0)
		return -ENOMEM;
	*cap = room;
	return 0;
}
