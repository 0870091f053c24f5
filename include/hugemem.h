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

#endif
