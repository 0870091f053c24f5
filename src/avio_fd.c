/*
 * avio_fd — libavformat's I/O through a descriptor; see src/avio_fd.h.
 *
 * libavformat never sees a file name: it writes through an AVIOContext on
 * our descriptor (a name such as "pipe:x" or "file:y" is a plain file, not
 * a protocol), and the one muxer that reads its output back (mov/mp4
 * faststart moves the index to the front) gets a reader on the same
 * descriptor through oc->io_open, with its own offset (pread).
 */
#include "avio_fd.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavutil/mem.h>

#define IO_BUFFER 65536

static int fd_write(void *opaque, uint8_t *buf, int size)
{
	struct avio_fd *v = opaque;
	int done = 0;

	while (done < size) {
		ssize_t n = write(v->fd, buf + done, (size_t)(size - done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return AVERROR(errno);
		done += (int)n;
	}
	return size;
}

static int64_t fd_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (int64_t)st.st_size : AVERROR(errno);
}

static int64_t fd_seek(void *opaque, int64_t offset, int whence)
{
	struct avio_fd *v = opaque;

	if (whence & AVSEEK_SIZE)
		return fd_size(v->fd);
	off_t at = lseek(v->fd, (off_t)offset, whence & ~AVSEEK_FORCE);
	return at < 0 ? AVERROR(errno) : (int64_t)at;
}

/* A reader on the output, for the muxer's second pass. */
struct reader {
	int fd;
	int64_t pos;
};

static int reader_read(void *opaque, uint8_t *buf, int size)
{
	struct reader *r = opaque;
	ssize_t n;

	do
		n = pread(r->fd, buf, (size_t)size, (off_t)r->pos);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return AVERROR(errno);
	if (n == 0)
		return AVERROR_EOF;
	r->pos += n;
	return (int)n;
}

static int64_t reader_seek(void *opaque, int64_t offset, int whence)
{
	struct reader *r = opaque;
	int64_t size = fd_size(r->fd);

	if (whence & AVSEEK_SIZE)
		return size;
	switch (whence & ~AVSEEK_FORCE) {
	case SEEK_SET: break;
	case SEEK_CUR: offset += r->pos; break;
	case SEEK_END: if (size < 0) return size; offset += size; break;
	default: return AVERROR(EINVAL);
	}
	if (offset < 0)
		return AVERROR(EINVAL);
	return r->pos = offset;
}

int avio_fd_free(AVIOContext **pb)
{
	int ret = 0;

	if (!*pb)
		return 0;
	if ((*pb)->write_flag) {
		avio_flush(*pb);
		ret = (*pb)->error;
	}
	av_freep(&(*pb)->buffer);
	avio_context_free(pb);
	return ret < 0 ? ret : 0;
}

/* oc->io_open: only a reader of our own output, never a name. */
int avio_fd_io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url,
                    int flags, AVDictionary **options)
{
	struct avio_fd *v = s->opaque;
	struct reader *r;
	unsigned char *buf;

	(void)url;
	(void)options;
	*pb = NULL;
	if (flags != AVIO_FLAG_READ || !v->seekable)
		return AVERROR(EPERM);
	r = av_mallocz(sizeof *r);
	buf = av_malloc(IO_BUFFER);
	if (r && buf)
		*pb = avio_alloc_context(buf, IO_BUFFER, 0, r, reader_read, NULL, reader_seek);
	if (!*pb) {
		av_free(r);
		av_free(buf);
		return AVERROR(ENOMEM);
	}
	r->fd = v->fd;
	(*pb)->seekable = AVIO_SEEKABLE_NORMAL;
	return 0;
}

int avio_fd_io_close2(struct AVFormatContext *s, AVIOContext *pb)
{
	(void)s;
	av_free(pb->opaque);
	av_freep(&pb->buffer);
	avio_context_free(&pb);
	return 0;
}

/* Writes are thrown away: for trying a muxer's settings in video_check(). */
static int null_write(void *opaque, uint8_t *buf, int size)
{
	(void)opaque;
	(void)buf;
	return size;
}

static int64_t null_seek(void *opaque, int64_t offset, int whence)
{
	(void)opaque;
	return whence & AVSEEK_SIZE ? 0 : offset;
}

int avio_fd_writer(AVIOContext **pb, struct avio_fd *out)
{
	unsigned char *buf = av_malloc(IO_BUFFER);

	*pb = NULL;
	if (buf)
		*pb = avio_alloc_context(buf, IO_BUFFER, 1, out, NULL, fd_write,
		                         out->seekable ? fd_seek : NULL);
	if (!*pb) {
		av_free(buf);
		return AVERROR(ENOMEM);
	}
	(*pb)->seekable = out->seekable ? AVIO_SEEKABLE_NORMAL : 0;
	return 0;
}

int avio_fd_sink(AVIOContext **pb)
{
	unsigned char *buf = av_malloc(IO_BUFFER);

	*pb = NULL;
	if (buf)
		*pb = avio_alloc_context(buf, IO_BUFFER, 1, NULL, NULL, null_write, null_seek);
	if (!*pb) {
		av_free(buf);
		return AVERROR(ENOMEM);
	}
	(*pb)->seekable = AVIO_SEEKABLE_NORMAL;
	return 0;
}
