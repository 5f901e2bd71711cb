/* Writing a dump file whole or not at all (the journal and the order log at a cut). */
#include "dumpfile.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>

int dump_file(const char *path, int (*body)(FILE *f, const void *ctx), const void *ctx)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return -errno;
	errno = 0;
	int rc = body(f, ctx);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		rc = rc ? rc : -errno;
	if (fclose(f) != 0)
		rc = rc ? rc : -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(tmp);
	return rc;
}
