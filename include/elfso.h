/*
 * elfso — is a file a whole ELF shared object for this machine?  The
 * dynamic loader maps a file's segments as its headers describe them and
 * trusts them: a shared object cut short (a copy interrupted, a full disk)
 * maps pages past its end and dies of SIGBUS when they are touched, inside
 * dlopen(), before any message.  src/plugin.c asks this first.
 *
 * Library module: never prints; the answer comes back with a reason.
 */
#ifndef BOIDS_ELFSO_H
#define BOIDS_ELFSO_H

#include <stddef.h>

/*
 * Checks the file open as fd (read with pread; its offset is left alone):
 * an ELF file of this process's class (32/64-bit), byte order and machine
 * (as its own executable, /proc/self/exe, says), of type ET_DYN, whose
 * program headers, section headers and every loaded segment lie within
 * the file.  Returns 0, -ENOEXEC with why (lowercase, no period: "it is
 * cut short: its segments end at byte 1585152, the file has 1048576"), or
 * the negative errno of a failed read.
 */
int elfso_check(int fd, char *why, size_t whylen);

#endif
