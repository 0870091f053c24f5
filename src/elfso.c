/*
 * elfso — is a file a whole ELF shared object for this machine; see
 * include/elfso.h.  elfso_check() reads the ELF header, compares it with
 * the process's own executable's, then finds the end of everything the
 * headers place in the file (far_end()).
 */
#include "elfso.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h> /* ElfW(): this process's class */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef ElfW(Ehdr) ehdr;
typedef ElfW(Phdr) phdr;

enum { PHDR_BLOCK = 32 }; /* program headers read at a time */

/* The class, byte order and machine this process runs as: its executable's header. */
static int native(ehdr *own)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, own, sizeof *own, 0);

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)sizeof *own && memcmp(own->e_ident, ELFMAG, SELFMAG) == 0 ? 0 : -1;
}

static int refuse(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -ENOEXEC;
}

/* a + b, or UINTMAX_MAX when it overflows (far past any file's end). */
static uintmax_t add(uintmax_t a, uintmax_t b)
{
	return a > UINTMAX_MAX - b ? UINTMAX_MAX : a + b;
}

/*
 * The end of what the headers place in the file: the program and section
 * header tables and every segment's bytes.  0 with *end, or a negative
 * errno.
 */
static int far_end(int fd, const ehdr *h, uintmax_t *end)
{
	phdr ph[PHDR_BLOCK];

	*end = add(h->e_phoff, (uintmax_t)h->e_phnum * sizeof(phdr));
	if (h->e_shoff && h->e_shnum) {
		uintmax_t sh = add(h->e_shoff, (uintmax_t)h->e_shnum * h->e_shentsize);
		*end = sh > *end ? sh : *end;
	}
	for (unsigned i = 0; i < h->e_phnum; i += PHDR_BLOCK) {
		unsigned k = h->e_phnum - i < PHDR_BLOCK ? h->e_phnum - i : PHDR_BLOCK;
		ssize_t n = pread(fd, ph, k * sizeof(phdr), (off_t)(h->e_phoff + i * sizeof(phdr)));
		if (n < 0)
			return -errno;
		if ((size_t)n < k * sizeof(phdr))
			return 0; /* the table itself is cut short: *end says so */
		for (unsigned j = 0; j < k; j++) {
			uintmax_t e = add(ph[j].p_offset, ph[j].p_filesz);
			if (ph[j].p_type != PT_NULL && e > *end)
				*end = e;
		}
	}
	return 0;
}

int elfso_check(int fd, char *why, size_t whylen)
{
	struct stat st;
	ehdr h, own;
	ssize_t n;

	if (fstat(fd, &st) != 0 || (n = pread(fd, &h, sizeof h, 0)) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return refuse(why, whylen, "it is not a regular file");
	if (n < SELFMAG || memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
		return refuse(why, whylen, "it is not an ELF file");
	if ((size_t)n < sizeof h)
		return refuse(why, whylen, "it is cut short: %zd bytes, less than an ELF header", n);
	if (native(&own) != 0) /* no /proc: this build's own class and byte order */
		memcpy(&own, &h, sizeof h), own.e_ident[EI_CLASS] = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32,
		own.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	if (h.e_ident[EI_CLASS] != own.e_ident[EI_CLASS] || h.e_ident[EI_DATA] != own.e_ident[EI_DATA] ||
	    h.e_machine != own.e_machine || h.e_version != EV_CURRENT)
		return refuse(why, whylen, "it is built for another machine (ELF class %u, byte order %u, machine %u; "
		              "boids is %u, %u, %u)", h.e_ident[EI_CLASS], h.e_ident[EI_DATA], (unsigned)h.e_machine,
		              own.e_ident[EI_CLASS], own.e_ident[EI_DATA], (unsigned)own.e_machine);
	if (h.e_type != ET_DYN)
		return refuse(why, whylen, "it is not a shared object (ELF type %u)", (unsigned)h.e_type);
	if (h.e_phentsize != sizeof(phdr) || h.e_phnum == 0 || h.e_phnum == PN_XNUM)
		return refuse(why, whylen, "its program headers are malformed");
	uintmax_t end;
	int ret = far_end(fd, &h, &end);
	if (ret)
		return ret;
	if (end > (uintmax_t)st.st_size)
		return refuse(why, whylen, "it is cut short: its headers place bytes up to %ju, the file has %ju",
		              end, (uintmax_t)st.st_size);
	return 0;
}
