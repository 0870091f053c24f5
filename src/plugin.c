/*
 * plugin — finding, trusting and opening a plugin, once; see
 * include/plugin.h.  plugin_table() finds the file (find()), plugin_load()
 * judges and opens it.
 */
#include "plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "elfso.h"
#include "trusted.h"

/* dir/sub+file into buf; 0, or -1 when it does not fit. */
static int join(char *buf, size_t len, const char *dir, const char *sub, const char *file)
{
	int n = snprintf(buf, len, "%s/%s%s", dir, sub, file);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The loader's reason without the file name dlerror() starts it with. */
static const char *reason(const char *path, const char *why)
{
	size_t n = strlen(path);

	if (!why)
		return strerror(ENOENT);
	if (strncmp(why, path, n) == 0 && strncmp(why + n, ": ", 2) == 0)
		why += n + 2;
	return why;
}

/* "cannot load the <what> module '<path>': <why>" into err; returns NULL. */
static const void *fail(char *err, size_t errlen, const char *what, const char *path, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "cannot load the %s module '%s': %s", what, path, why);
	return NULL;
}

/* Is the file at path one to dlopen(): trusted, and a whole ELF shared object?  0, or -1 with why. */
static int judge(const char *path, char *why, size_t len)
{
	int ret = trusted_path(path, why, len);

	if (ret == -ENOENT || ret == -ENOTDIR) { /* as the loader says it */
		snprintf(why, len, "cannot open shared object file: %s", strerror(-ret));
		return -1;
	}
	if (ret)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "cannot open shared object file: %s", strerror(errno));
		return -1;
	}
	ret = elfso_check(fd, why, len);
	if (ret && ret != -ENOEXEC)
		snprintf(why, len, "cannot read it: %s", strerror(-ret));
	close(fd);
	return ret ? -1 : 0;
}

const void *plugin_load(const char *path, const char *symbol, const char *what,
                        const struct plugin_head *want, char *err, size_t errlen)
{
	char why[PATH_MAX + 128];

	if (judge(path, why, sizeof why) != 0)
		return fail(err, errlen, what, path, why);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* a missing symbol fails here, not mid-run */
	const struct plugin_head *t = h ? dlsym(h, symbol) : NULL;
	if (!t)
		return fail(err, errlen, what, path, reason(path, dlerror()));
	if (t->abi != want->abi || t->size != want->size || t->types != want->types)
		return fail(err, errlen, what, path, "it is from another build of boids (reinstall boids)");
	return t;
}

/* Where p's file is: next to the executable, else ../lib/boids/ from there.  0, or -1 with why. */
static int find(const struct plugin *p, char *path, size_t len, char *why, size_t whylen)
{
	char dir[PATH_MAX], installed[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);

	if (n <= 0) {
		snprintf(why, whylen, "cannot load the %s module '%s': cannot find the boids executable "
		         "(/proc/self/exe)", p->what, p->file);
		return -1;
	}
	dir[n] = '\0';
	*strrchr(dir, '/') = '\0'; /* the kernel's path is absolute */
	if (join(path, len, dir, "", p->file) != 0 ||
	    join(installed, sizeof installed, dir, "../lib/boids/", p->file) != 0) {
		snprintf(why, whylen, "cannot load the %s module '%s': %s", p->what, p->file, strerror(ENAMETOOLONG));
		return -1;
	}
	if (access(path, F_OK) != 0)
		snprintf(path, len, "%s", installed);
	return 0;
}

const void *plugin_table(struct plugin *p, char *err, size_t errlen)
{
	char path[PATH_MAX];

	pthread_mutex_lock(&p->lock);
	if (!p->tried) {
		p->tried = 1;
		if (find(p, path, sizeof path, p->why, sizeof p->why) == 0)
			p->table = plugin_load(path, p->symbol, p->what, &p->want, p->why, sizeof p->why);
		if (p->table && p->loaded)
			p->loaded(p->table);
	}
	pthread_mutex_unlock(&p->lock);
	if (!p->table && err && errlen)
		snprintf(err, errlen, "%s", p->why);
	return p->table;
}

const void *plugin_loaded(struct plugin *p)
{
	pthread_mutex_lock(&p->lock);
	const void *t = p->table;
	pthread_mutex_unlock(&p->lock);
	return t;
}
