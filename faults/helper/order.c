#include "order.h"
#include "dumpfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int order_init(struct order_log *o, uint64_t cap)
{
	o->cap = cap;
	o->next = 0;
	o->ring = cap ? calloc(cap, sizeof(*o->ring)) : NULL;
	return cap && !o->ring ? -ENOMEM : 0;
}

void order_note(struct order_log *o, enum order_kind kind, uint64_t a, uint64_t b, uint32_t len)
{
	if (!o->ring)
		return;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	o->ring[o->next++ % o->cap] = (struct order_event){ kind, len, a, b,
		(uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec };
}

static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : errno ? -errno : -EIO;
}

/* "PFO1", u64 count, then per event u32 kind, u32 len, u64 a, u64 b, u64 t_ns (little-endian host). */
static int write_events(FILE *f, const void *ctx)
{
	const struct order_log *o = ctx;
	uint64_t kept = o->next < o->cap ? o->next : o->cap;
	int rc = put(f, "PFO1", 4);
	rc = rc ? rc : put(f, &kept, 8);
	for (uint64_t i = o->next - kept; rc == 0 && i < o->next; i++)
		rc = put(f, &o->ring[i % o->cap], sizeof(struct order_event));
	return rc;
}

int order_dump(const struct order_log *o, const char *path)
{
	return dump_file(path, write_events, o);
}
