/*
 * hugemem — asks the kernel to back a big array with 2 MB pages.
 *
 * A flock of millions jumps about arrays of hundreds of megabytes (index
 * order against grid order), and with 4 KB pages nearly every such read
 * also misses the TLB.  Debian's kernel gives huge pages only where a
 * program asks (transparent_hugepage=madvise), so the big arrays ask.
 * Advice only: nothing is read or written, and without huge pages nothing
 * changes but the speed.
 */
#ifndef BOIDS_HUGEMEM_H
#define BOIDS_HUGEMEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGEMEM_PAGE ((size_t)2 << 20)

/* Advises the whole 2 MB pages within [p, p + bytes) (none if it is smaller). */
static inline void hugemem_advise(void *p, size_t bytes)
{
	uintptr_t lo = ((uintptr_t)p + HUGEMEM_PAGE - 1) & ~(uintptr_t)(HUGEMEM_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGEMEM_PAGE - 1);

	if (p && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

/* From this size on hugemem_alloc() aligns to 2 MB pages: below it a huge
 * page would make a small flock's few kilobytes resident as 2 MB. */
#define HUGEMEM_MIN ((size_t)8 << 20)

/*
 * bytes (not zeroed) aligned to a cache line, or from HUGEMEM_MIN on to
 * whole 2 MB pages, all advised: a malloc'ed block starts 16 bytes into a
 * page, so its first and last 2 MB are never huge and its records straddle
 * cache lines.  Free with free(); NULL when out of memory.
 */
static inline void *hugemem_alloc(size_t bytes)
{
	size_t align = bytes >= HUGEMEM_MIN ? HUGEMEM_PAGE : 64;
	size_t size = (bytes + align - 1) / align * align;
	void *p = aligned_alloc(align, size ? size : align);

	if (p && align == HUGEMEM_PAGE)
		hugemem_advise(p, size);
	return p;
}

#endif
