/* Writing a dump file whole or not at all. */
#ifndef PFDISK_DUMPFILE_H
#define PFDISK_DUMPFILE_H

#include <stdio.h>

/* Calls body(f, ctx) on PATH.tmp, syncs it and renames it over PATH: a dump that fails leaves
 * nothing at PATH. body returns 0 or -errno. Returns 0 or -errno. */
int dump_file(const char *path, int (*body)(FILE *f, const void *ctx), const void *ctx);

#endif
