/*
 * zfile — compressed text streams as ordinary stdio streams: a FILE * that
 * compresses what is written to it (gzip through zlib, zstd through
 * libzstd) into another stream, or decompresses what is read from one.  So
 * the trajectory CSV's writer and reader work unchanged on .csv.gz and
 * .csv.zst files, and the bytes go through the caller's stream (an outfile's
 * temporary file) and its error checks.
 *
 * Uses glibc's fopencookie().  A writer must be closed with fclose() to end
 * the compressed stream (its last bytes are written then); fclose() does not
 * close the underlying stream, which the caller closes (or commits) after.
 * Errors come back as stdio errors with errno set: the underlying stream's
 * errno for a failed write or read, EBADMSG for data that is not a valid
 * compressed stream (corrupt, truncated or of the other kind), EOVERFLOW
 * for a zstd frame whose window is beyond ZFILE_WINDOW_LOG_MAX, ENOMEM.
 *
 * A reader holds a constant amount of memory whatever the data: zlib's
 * 32 KiB window, and a zstd window of at most 2^ZFILE_WINDOW_LOG_MAX bytes
 * (128 MiB, what zstd itself decodes without --memory: every level, and
 * --long up to 27), besides the buffers here.
 */
#ifndef BOIDS_ZFILE_H
#define BOIDS_ZFILE_H

#include <stdio.h>

/* The largest zstd window a reader takes, as a power of two. */
#define ZFILE_WINDOW_LOG_MAX 27

enum zfile_kind {
	ZFILE_PLAIN,  /* not compressed */
	ZFILE_GZIP,   /* NAME.gz: gzip (RFC 1952), read back by gzip -dc */
	ZFILE_ZSTD,   /* NAME.zst: a zstd frame, read back by zstd -dc */
};

/* The kind a file name's extension says (.gz, .zst; case-insensitive). */
enum zfile_kind zfile_kind_of(const char *path);

/* "gzip", "zstd" or "plain", for messages. */
const char *zfile_kind_name(enum zfile_kind kind);

/*
 * The levels a kind accepts, from the lowest (0 for gzip, stored; 1 for
 * zstd, whose 0 means its default and negative levels trade ratio for
 * speed) to the highest (9 for gzip, 19 for zstd without its extra
 * memory-hungry levels; 0..0 for plain), and its default (6, 3, 0).
 */
int zfile_level_min(enum zfile_kind kind);
int zfile_level_max(enum zfile_kind kind);
int zfile_level_default(enum zfile_kind kind);

/*
 * A stream that compresses into `under` (kept open, not owned) at `level`
 * (zfile_level_min(kind)..zfile_level_max(kind)).  kind must not be
 * ZFILE_PLAIN.  Returns the stream, or NULL with errno set (ENOMEM,
 * EINVAL).  fclose() it to finish
 * the compressed data; a failed write of the compressed bytes shows as a
 * write error of this stream with the underlying errno.
 */
FILE *zfile_writer(FILE *under, enum zfile_kind kind, int level);

/*
 * A stream that decompresses what it reads from `under` (kept open, not
 * owned); concatenated gzip members and zstd frames are read one after the
 * other.  Returns the stream, or NULL with errno set.  Data that ends in the
 * middle of a compressed stream is an error (EBADMSG), never a short file.
 */
FILE *zfile_reader(FILE *under, enum zfile_kind kind);

#endif
