/*
 * zfile — gzip and zstd streams behind stdio's FILE *; see include/zfile.h.
 * One cookie per stream: the codec's state, a buffer of compressed bytes
 * and the underlying stream.  Writers start at zfile_writer(), readers at
 * zfile_reader().
 */
#define _GNU_SOURCE /* fopencookie */
#include "zfile.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

enum { ZBUF = 1 << 17 };         /* compressed bytes per read or write of `under` */
enum { STREAM_BUF = 1 << 18 };   /* stdio's buffer in front of the codec */

struct zcookie {
	FILE *under;                 /* where the compressed bytes go or come from */
	enum zfile_kind kind;
	int writing;
	int ended;                   /* reader: the last stream ended and no byte followed */
	z_stream zs;                 /* gzip */
	ZSTD_CStream *zc;            /* zstd writer */
	ZSTD_DStream *zd;            /* zstd reader */
	ZSTD_inBuffer zin;           /* zstd reader: what is left of buf */
	size_t zfrom;                /* zstd reader: ZSTD_decompressStream's last hint (0: a frame ended) */
	unsigned char buf[ZBUF];
};

enum zfile_kind zfile_kind_of(const char *path)
{
	size_t n = strlen(path);

	if (n >= 3 && strcasecmp(path + n - 3, ".gz") == 0)
		return ZFILE_GZIP;
	if (n >= 4 && strcasecmp(path + n - 4, ".zst") == 0)
		return ZFILE_ZSTD;
	return ZFILE_PLAIN;
}

const char *zfile_kind_name(enum zfile_kind kind)
{
	return kind == ZFILE_GZIP ? "gzip" : kind == ZFILE_ZSTD ? "zstd" : "plain";
}

int zfile_level_min(enum zfile_kind kind)
{
	return kind == ZFILE_ZSTD ? 1 : 0;
}

int zfile_level_max(enum zfile_kind kind)
{
	return kind == ZFILE_GZIP ? 9 : kind == ZFILE_ZSTD ? 19 : 0;
}

int zfile_level_default(enum zfile_kind kind)
{
	return kind == ZFILE_GZIP ? 6 : kind == ZFILE_ZSTD ? 3 : 0;
}

/* ----------------------------------------------------------------- writing */

/* Writes n compressed bytes to the underlying stream; 0 or -1 with errno. */
static int put(struct zcookie *z, const void *p, size_t n)
{
	errno = 0;
	if (n && fwrite(p, 1, n, z->under) != n) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Runs the gzip codec over the input with `flush`, writing what comes out. */
static int gz_run(struct zcookie *z, int flush)
{
	int ret;

	do {
		z->zs.next_out = z->buf;
		z->zs.avail_out = ZBUF;
		ret = deflate(&z->zs, flush);
		if (ret == Z_STREAM_ERROR) {
			errno = EINVAL;
			return -1;
		}
		if (put(z, z->buf, ZBUF - z->zs.avail_out) != 0)
			return -1;
	} while (z->zs.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
	return 0;
}

/* Compresses (or, at the end, finishes) with zstd, writing what comes out. */
static int zst_run(struct zcookie *z, const void *p, size_t n, int end)
{
	ZSTD_inBuffer in = { p, n, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out = { z->buf, ZBUF, 0 };
		left = end ? ZSTD_endStream(z->zc, &out) : ZSTD_compressStream(z->zc, &out, &in);
		if (ZSTD_isError(left)) {
			errno = ZSTD_getErrorCode(left) == ZSTD_error_memory_allocation ? ENOMEM : EINVAL;
			return -1;
		}
		if (put(z, z->buf, out.pos) != 0)
			return -1;
	} while (end ? left > 0 : in.pos < in.size);
	return 0;
}

static ssize_t z_write(void *cookie, const char *p, size_t n)
{
	struct zcookie *z = cookie;

	if (z->kind == ZFILE_GZIP) {
		z->zs.next_in = (unsigned char *)(uintptr_t)p;
		z->zs.avail_in = (uInt)n; /* n is at most stdio's buffer */
		if (gz_run(z, Z_NO_FLUSH) != 0)
			return 0;
	} else if (zst_run(z, p, n, 0) != 0) {
		return 0;
	}
	return (ssize_t)n;
}

/* ----------------------------------------------------------------- reading */

/* Refills buf from the underlying stream: bytes read, 0 at its end, -1 with errno. */
static ssize_t fill(struct zcookie *z)
{
	errno = 0;
	size_t got = fread(z->buf, 1, ZBUF, z->under);
	if (got == 0 && ferror(z->under)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return (ssize_t)got;
}

static ssize_t gz_read(struct zcookie *z, char *p, size_t n)
{
	z->zs.next_out = (unsigned char *)p;
	z->zs.avail_out = (uInt)n;
	while (z->zs.avail_out == n && !z->ended) {
		if (z->zs.avail_in == 0) {
			ssize_t got = fill(z);
			if (got < 0)
				return -1;
			if (got == 0) { /* the end of the file: only between members */
				if (z->zfrom == 0)
					break;
				errno = EBADMSG;
				return -1;
			}
			z->zs.next_in = z->buf;
			z->zs.avail_in = (uInt)got;
		}
		int ret = inflate(&z->zs, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			inflateReset(&z->zs); /* another member may follow */
			z->zfrom = 0;
			if (z->zs.avail_in == 0) {
				ssize_t got = fill(z);
				if (got < 0)
					return -1;
				z->ended = got == 0;
				z->zs.next_in = z->buf;
				z->zs.avail_in = (uInt)got;
			}
		} else if (ret == Z_MEM_ERROR) {
			errno = ENOMEM;
			return -1;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			errno = EBADMSG;
			return -1;
		} else {
			z->zfrom = 1; /* inside a member */
		}
	}
	return (ssize_t)(n - z->zs.avail_out);
}

static ssize_t zst_read(struct zcookie *z, char *p, size_t n)
{
	ZSTD_outBuffer out = { p, n, 0 };

	while (out.pos == 0) {
		if (z->zin.pos == z->zin.size) {
			ssize_t got = fill(z);
			if (got < 0)
				return -1;
			if (got == 0) {
				if (z->zfrom != 0) { /* in the middle of a frame */
					errno = EBADMSG;
					return -1;
				}
				break;
			}
			z->zin.src = z->buf;
			z->zin.size = (size_t)got;
			z->zin.pos = 0;
		}
		size_t ret = ZSTD_decompressStream(z->zd, &out, &z->zin);
		if (ZSTD_isError(ret)) {
			ZSTD_ErrorCode e = ZSTD_getErrorCode(ret);
			errno = e == ZSTD_error_memory_allocation ? ENOMEM :
			        e == ZSTD_error_frameParameter_windowTooLarge ? EOVERFLOW : EBADMSG;
			return -1;
		}
		z->zfrom = ret;
	}
	return (ssize_t)out.pos;
}

static ssize_t z_read(void *cookie, char *p, size_t n)
{
	struct zcookie *z = cookie;

	if (n > ZBUF)
		n = ZBUF;
	return z->kind == ZFILE_GZIP ? gz_read(z, p, n) : zst_read(z, p, n);
}

/* ----------------------------------------------------------------- both */

static void cookie_free(struct zcookie *z)
{
	if (z->kind == ZFILE_GZIP)
		z->writing ? deflateEnd(&z->zs) : inflateEnd(&z->zs);
	ZSTD_freeCStream(z->zc);
	ZSTD_freeDStream(z->zd);
	free(z);
}

static int z_close(void *cookie)
{
	struct zcookie *z = cookie;
	int ret = 0;

	if (z->writing)
		ret = z->kind == ZFILE_GZIP ? gz_run(z, Z_FINISH) : zst_run(z, NULL, 0, 1);
	int e = errno;
	cookie_free(z);
	errno = e;
	return ret;
}

/* A cookie for kind, its codec started; NULL with errno set. */
static struct zcookie *cookie_new(FILE *under, enum zfile_kind kind, int writing, int level)
{
	struct zcookie *z = calloc(1, sizeof(*z));
	int ok;

	if (!z)
		return NULL;
	z->under = under;
	z->kind = kind;
	z->writing = writing;
	if (kind == ZFILE_GZIP && writing)
		ok = deflateInit2(&z->zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	else if (kind == ZFILE_GZIP)
		ok = inflateInit2(&z->zs, 15 + 16) == Z_OK;
	else if (writing)
		ok = (z->zc = ZSTD_createCStream()) != NULL &&
		     !ZSTD_isError(ZSTD_CCtx_setParameter(z->zc, ZSTD_c_compressionLevel, level)) &&
		     !ZSTD_isError(ZSTD_CCtx_setParameter(z->zc, ZSTD_c_checksumFlag, 1));
	else
		ok = (z->zd = ZSTD_createDStream()) != NULL && !ZSTD_isError(ZSTD_initDStream(z->zd)) &&
		     !ZSTD_isError(ZSTD_DCtx_setParameter(z->zd, ZSTD_d_windowLogMax, ZFILE_WINDOW_LOG_MAX));
	if (!ok) {
		cookie_free(z); /* zlib's End functions take a stream that never started */
		errno = ENOMEM;
		return NULL;
	}
	return z;
}

/* Opens the cookie's stream with a large buffer; NULL with errno set (z freed). */
static FILE *open_stream(struct zcookie *z, const char *mode, cookie_io_functions_t io)
{
	FILE *f = fopencookie(z, mode, io);

	if (!f) {
		cookie_free(z);
		errno = ENOMEM;
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, STREAM_BUF);
	return f;
}

FILE *zfile_writer(FILE *under, enum zfile_kind kind, int level)
{
	if (kind == ZFILE_PLAIN || level < zfile_level_min(kind) || level > zfile_level_max(kind)) {
		errno = EINVAL;
		return NULL;
	}
	struct zcookie *z = cookie_new(under, kind, 1, level);
	if (!z)
		return NULL;
	return open_stream(z, "w", (cookie_io_functions_t){ .write = z_write, .close = z_close });
}

FILE *zfile_reader(FILE *under, enum zfile_kind kind)
{
	if (kind == ZFILE_PLAIN) {
		errno = EINVAL;
		return NULL;
	}
	struct zcookie *z = cookie_new(under, kind, 0, 0);
	if (!z)
		return NULL;
	return open_stream(z, "r", (cookie_io_functions_t){ .read = z_read, .close = z_close });
}
