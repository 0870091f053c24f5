/*
 * Fault injection for `make test-faults` (docs/RELIABILITY.md), SQLite
 * style: fail the Nth allocation, or the Nth write, once, and see that boids
 * still ends cleanly.
 *
 * Linked into a separate ASan build of boids (build-faults/boids-faults)
 * with ld's --wrap, so it sees boids' own calls:
 *
 *   allocations  malloc calloc realloc strdup strndup fopen fdopen
 *   writes       fwrite fputs fputc fprintf vfprintf fflush when the call
 *                would make stdio write(2) (the buffer is full, or there is
 *                something to flush: filling a buffer cannot fail), fclose,
 *                fsync, rename, link, close, and write(2) from anywhere: it
 *                is defined here, so libavformat's file and pipe protocols
 *                (the video bytes) go through it too.
 *
 * Writes to standard error (messages, the progress bar) are never failed
 * nor counted.  Allocations made inside the libraries (Cairo, libavcodec,
 * libpng) are not counted: --wrap only sees boids' calls.
 *
 *   BOIDS_FAIL_ALLOC=N   the Nth allocation returns NULL (ENOMEM)
 *   BOIDS_FAIL_WRITE=N   the Nth write fails (ENOSPC; EIO for fsync/close)
 *   BOIDS_FAULT_COUNT=F  at exit, write "alloc A\nwrite W\n" to F: how many
 *                        calls a run made, the range of N to sweep
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------- the counter */

static atomic_long allocs, writes;
static long fail_alloc = -1, fail_write = -1; /* -1: not read yet; 0: never */
static const char *count_path;

static void write_counts(void)
{
	char buf[96];
	int n = snprintf(buf, sizeof(buf), "alloc %ld\nwrite %ld\n", (long)allocs, (long)writes);
	int fd = open(count_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		ssize_t (*real)(int, const void *, size_t) =
			(ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
		if (real(fd, buf, (size_t)n) < 0)
			abort();
		int (*rclose)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");
		rclose(fd);
	}
}

static void setup(void)
{
	static atomic_int done;

	if (atomic_exchange(&done, 1))
		return;
	const char *a = getenv("BOIDS_FAIL_ALLOC"), *w = getenv("BOIDS_FAIL_WRITE");
	fail_alloc = a ? atol(a) : 0;
	fail_write = w ? atol(w) : 0;
	count_path = getenv("BOIDS_FAULT_COUNT");
	if (count_path)
		atexit(write_counts);
}

/* Is this the allocation to fail? */
static int alloc_fails(void)
{
	setup();
	long k = atomic_fetch_add(&allocs, 1) + 1;
	if (k == fail_alloc) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

/* Is this write to fd (-1: a stream not yet known) the one to fail? */
static int write_fails(int fd, int err)
{
	if (fd == STDERR_FILENO)
		return 0;
	setup();
	long k = atomic_fetch_add(&writes, 1) + 1;
	if (k == fail_write) {
		errno = err;
		return 1;
	}
	return 0;
}

/*
 * Would putting n more bytes into stream f make stdio call write(2)?  That
 * is the write that can fail: filling the buffer cannot.  (glibc's FILE:
 * the buffer is allocated on first use, st_blksize bytes.)
 */
static int reaches_os(FILE *f, size_t n)
{
	if (!f->_IO_buf_base)
		return n >= BUFSIZ;
	return (size_t)(f->_IO_buf_end - f->_IO_write_ptr) <= n;
}

/* A stdio call that will write(2): fail it as the write would. */
static int stream_fails(FILE *f, size_t n)
{
	if (!f || !reaches_os(f, n) || !write_fails(fileno(f), ENOSPC))
		return 0;
	f->_flags |= _IO_ERR_SEEN; /* what a failed write(2) inside stdio leaves */
	return 1;
}

/* ------------------------------------------------------------- allocations */

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fdopen(int fd, const char *mode);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fdopen(int fd, const char *mode);

void *__wrap_malloc(size_t n) { return alloc_fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return alloc_fails() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return alloc_fails() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return alloc_fails() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return alloc_fails() ? NULL : __real_strndup(s, n); }
FILE *__wrap_fopen(const char *path, const char *mode)
{
	return alloc_fails() ? NULL : __real_fopen(path, mode);
}
FILE *__wrap_fdopen(int fd, const char *mode)
{
	return alloc_fails() ? NULL : __real_fdopen(fd, mode);
}

/* ------------------------------------------------------------------ writes */

size_t __real_fwrite(const void *p, size_t k, size_t n, FILE *f);
int __real_fputs(const char *s, FILE *f);
int __real_fputc(int c, FILE *f);
int __real_vfprintf(FILE *f, const char *fmt, va_list ap);
int __real_fflush(FILE *f);
int __real_fclose(FILE *f);
int __real_fsync(int fd);
int __real_rename(const char *a, const char *b);
int __real_link(const char *a, const char *b);
int __real_close(int fd);
size_t __wrap_fwrite(const void *p, size_t k, size_t n, FILE *f);
int __wrap_fputs(const char *s, FILE *f);
int __wrap_fputc(int c, FILE *f);
int __wrap_fprintf(FILE *f, const char *fmt, ...);
int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap);
int __wrap_fflush(FILE *f);
int __wrap_fclose(FILE *f);
int __wrap_fsync(int fd);
int __wrap_rename(const char *a, const char *b);
int __wrap_link(const char *a, const char *b);
int __wrap_close(int fd);

size_t __wrap_fwrite(const void *p, size_t k, size_t n, FILE *f)
{
	return stream_fails(f, k * n) ? 0 : __real_fwrite(p, k, n, f);
}
int __wrap_fputs(const char *s, FILE *f) { return stream_fails(f, strlen(s)) ? EOF : __real_fputs(s, f); }
int __wrap_fputc(int c, FILE *f) { return stream_fails(f, 1) ? EOF : __real_fputc(c, f); }
int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	return stream_fails(f, n > 0 ? (size_t)n : 0) ? -1 : __real_vfprintf(f, fmt, ap);
}
int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int r = __wrap_vfprintf(f, fmt, ap);
	va_end(ap);
	return r;
}
int __wrap_fflush(FILE *f)
{
	int pending = f && f->_IO_write_ptr > f->_IO_write_base;
	if (pending && write_fails(fileno(f), ENOSPC)) {
		f->_flags |= _IO_ERR_SEEN;
		return EOF;
	}
	return __real_fflush(f);
}
int __wrap_fclose(FILE *f)
{
	int fails = write_fails(fileno(f), EIO); /* closed anyway, as on NFS */
	int r = __real_fclose(f);
	if (fails) {
		errno = EIO;
		return EOF;
	}
	return r;
}
int __wrap_fsync(int fd) { return write_fails(fd, EIO) ? -1 : __real_fsync(fd); }
int __wrap_rename(const char *a, const char *b) { return write_fails(-1, ENOSPC) ? -1 : __real_rename(a, b); }
int __wrap_link(const char *a, const char *b) { return write_fails(-1, ENOSPC) ? -1 : __real_link(a, b); }
int __wrap_close(int fd)
{
	int fails = write_fails(fd, EIO);
	int r = __real_close(fd);
	if (fails) {
		errno = EIO;
		return -1;
	}
	return r;
}

/* write(2) for everyone: boids and the libraries (libavformat's avio). */
ssize_t write(int fd, const void *p, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (write_fails(fd, ENOSPC))
		return -1;
	return real(fd, p, n);
}
