/*
 * A test plugin (tests/test_plugin.c) that runs code as soon as it is
 * mapped: its constructor creates the file "constructor-ran" in the
 * current directory.  What another user could plant beside a copied boids:
 * the loader must refuse it before dlopen() runs a line of it.  It exports
 * no table, so a loader that gets as far as dlsym() refuses it there.
 */
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void ran(void)
{
	int fd = open("constructor-ran", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0)
		close(fd);
}
