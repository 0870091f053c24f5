/*
 * trusted — may a file be trusted as code?  Only if no other user could
 * have replaced it: the file and every directory on the way to it, the
 * directories its symbolic links lead through included, belong to root or
 * to the user running boids, and none is writable by others.  A directory
 * writable by all with the sticky bit (/tmp) is fine: others may add names
 * to it but not replace ours, and a name they add is theirs (refused as
 * such).  Writable by the group is fine only for the owner's private
 * group (Debian and Ubuntu give each user one, and a umask of 002): a
 * group whose only member is the owner, by /etc/passwd and /etc/group.
 *
 * How OpenSSH's StrictModes (with Debian's user-group-modes) and the sweep
 * judge its binary judge; src/plugin.c asks it before dlopen().
 *
 * Library module: never prints; the answer comes back with a reason.
 */
#ifndef BOIDS_TRUSTED_H
#define BOIDS_TRUSTED_H

#include <stddef.h>

/*
 * Checks path (absolute) as above, following its symbolic links (40 at
 * most) the way the kernel does.  Returns 0 when it is a regular file no
 * other user could replace; -EPERM with why (lowercase, no period) naming
 * the file or directory and its fault: "the directory '/tmp/x' is writable
 * by other users (mode 0777, no sticky bit)", "'/a/b.so' belongs to
 * another user (uid 1000)"; or the negative errno that stopped the walk
 * (ENOENT, ENOTDIR, ELOOP, EACCES), with why naming where.
 */
int trusted_path(const char *path, char *why, size_t whylen);

#endif
