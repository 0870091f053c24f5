/*
 * avio_fd — private to the video module: libavformat's I/O through a
 * descriptor we opened, never through a name (a name such as "pipe:x" or
 * "file:y" is a plain file, not a protocol).
 */
#ifndef BOIDS_AVIO_FD_H
#define BOIDS_AVIO_FD_H

#include <libavformat/avformat.h>

/* Where the bytes go. */
struct avio_fd {
	int fd;                     /* the caller's; never closed here */
	int seekable;               /* fd is a regular file: seeks, and reads back */
};

/*
 * A writing AVIOContext on out->fd, seekable when out->seekable; out must
 * outlive it.  Returns 0 or AVERROR(ENOMEM).  Free with avio_fd_free().
 */
int avio_fd_writer(AVIOContext **pb, struct avio_fd *out);

/* A writing AVIOContext that throws the bytes away (seekable): for trying
 * a muxer's settings.  Returns 0 or AVERROR(ENOMEM). */
int avio_fd_sink(AVIOContext **pb);

/*
 * For AVFormatContext.io_open and .io_close2, with s->opaque pointing to
 * the struct avio_fd: the one muxer that reads its output back (mov/mp4
 * faststart moves the index to the front) gets a reader on the same
 * descriptor, with its own offset (pread).  Any other name: AVERROR(EPERM).
 */
int avio_fd_io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url,
                    int flags, AVDictionary **options);
int avio_fd_io_close2(struct AVFormatContext *s, AVIOContext *pb);

/* Flushes (when writing) and frees a context made here, with its buffer;
 * *pb becomes NULL.  Returns 0 or the context's error (a full disk). */
int avio_fd_free(AVIOContext **pb);

#endif
