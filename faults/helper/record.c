#include "record.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RECORD_BUFFER (4u << 20) /* writes are noted under the disk's lock: few, large write(2)s */

int record_open(struct record *r, const char *path, uint64_t max)
{
	*r = (struct record){ .path = path, .max = max };
	errno = 0;
	r->buf = malloc(RECORD_BUFFER);
	if (!r->buf)
		return -ENOMEM;
	r->f = fopen(path, "w");
	if (!r->f || setvbuf(r->f, r->buf, _IOFBF, RECORD_BUFFER) != 0) {
		int rc = errno ? -errno : -EIO;
		if (r->f)
			fclose(r->f);
		r->f = NULL;
		return rc;
	}
	if (fwrite("PFR1", 1, 4, r->f) != 4)
		return errno ? -errno : -EIO;
	r->bytes = 4;
	return 0;
}

static void stop(struct record *r, const char *why)
{
	fprintf(stderr, "pfdisk: recording to %s stopped: %s\n", r->path, why);
	__fpurge(r->f); /* what is still buffered is dropped: the file stays a prefix of the recording, with no gap */
	fclose(r->f);
	r->f = NULL;
}

static void put(struct record *r, const void *p, size_t n)
{
	if (r->f && fwrite(p, 1, n, r->f) != n)
		stop(r, strerror(errno ? errno : EIO));
	else if (r->f)
		r->bytes += n;
}

static void put_event(struct record *r, uint32_t kind, uint64_t a, uint64_t b, uint32_t len)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	struct order_event e = { kind, len, a, b, (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec };
	put(r, &e, sizeof(e));
}

/* Whether an event of n bytes fits with room left for the closing one; if not, closes with TRUNCATED. */
static int fits(struct record *r, uint64_t n, uint64_t next)
{
	if (!r->f)
		return 0;
	if (r->bytes + n + sizeof(struct order_event) <= r->max)
		return 1;
	put_event(r, RECORD_TRUNCATED, next, 0, 0);
	record_close(r);
	return 0;
}

void record_write(struct record *r, uint64_t seq, uint64_t off, uint32_t len, const void *data)
{
	if (!fits(r, sizeof(struct order_event) + (uint64_t)len, seq))
		return;
	put_event(r, ORDER_WRITE, seq, off, len);
	put(r, data, len);
}

void record_flush(struct record *r, uint64_t boundary, uint64_t number)
{
	if (fits(r, sizeof(struct order_event), boundary))
		put_event(r, ORDER_FLUSH, boundary, number, 0);
}

void record_complete(struct record *r, uint64_t seq, uint64_t next)
{
	if (fits(r, sizeof(struct order_event), next))
		put_event(r, ORDER_COMPLETE, seq, 0, 0);
}

void record_cut(struct record *r, uint64_t next)
{
	if (!r->f)
		return;
	put_event(r, ORDER_CUT, next, 0, 0); /* the room kept for the closing event */
	record_close(r);
}

void record_close(struct record *r)
{
	if (r->f && fflush(r->f) != 0)
		stop(r, strerror(errno ? errno : EIO));
	if (r->f)
		fclose(r->f);
	r->f = NULL;
	free(r->buf);
	r->buf = NULL;
}
