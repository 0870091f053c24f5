/*
 * plugin — finding a plugin next to the executable or in ../lib/boids/,
 * and its symbol; see include/plugin.h.
 */
#define _GNU_SOURCE /* dladdr */
#include "plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

void *plugin_symbol(const char *file, const char *symbol, const char *what, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX], installed[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);

	if (n <= 0) {
		snprintf(err, errlen, "cannot load the %s module '%s': cannot find the boids executable "
		         "(/proc/self/exe)", what, file);
		return NULL;
	}
	dir[n] = '\0';
	*strrchr(dir, '/') = '\0'; /* the kernel's path is absolute */
	if (join(path, sizeof path, dir, "", file) != 0 ||
	    join(installed, sizeof installed, dir, "../lib/boids/", file) != 0) {
		snprintf(err, errlen, "cannot load the %s module '%s': %s", what, file, strerror(ENAMETOOLONG));
		return NULL;
	}
	if (access(path, F_OK) != 0)
		memcpy(path, installed, sizeof path);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* a missing symbol fails here, not mid-run */
	void *sym = h ? dlsym(h, symbol) : NULL;
	if (!sym)
		snprintf(err, errlen, "cannot load the %s module '%s': %s", what, path, reason(path, dlerror()));
	return sym;
}

const char *plugin_file(const void *symbol)
{
	Dl_info info;

	return dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "?";
}
