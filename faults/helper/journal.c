#include "journal.h"
#include "dumpfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void journal_init(struct journal *j, uint64_t max_bytes)
{
	memset(j, 0, sizeof(*j));
	j->max_bytes = max_bytes;
}

static void drop_entry(struct journal *j, struct jentry *e)
{
	j->bytes -= 2ull * e->len;
	free(e->old);
	e->old = e->new = NULL;
}

static void compact(struct journal *j)
{
	if (j->head == 0)
		return;
	memmove(j->e, j->e + j->head, (j->n - j->head) * sizeof(*j->e));
	j->n -= j->head;
	j->head = 0;
}

int journal_reserve(struct journal *j, size_t slots)
{
	if (j->cap - j->n >= slots)
		return 0;
	compact(j);
	size_t cap = j->cap ? j->cap : 1024;
	while (cap - j->n < slots)
		cap *= 2;
	if (cap == j->cap)
		return 0;
	struct jentry *e = realloc(j->e, cap * sizeof(*e));
	if (!e)
		return -ENOMEM;
	j->e = e;
	j->cap = cap;
	return 0;
}

size_t journal_add(struct journal *j, uint64_t seq, uint64_t off, uint32_t len, unsigned char *data)
{
	size_t retired = 0;
	j->e[j->n++] = (struct jentry){ seq, off, len, data, data + len };
	j->bytes += 2ull * len;
	while (j->bytes > j->max_bytes && j->head < j->n - 1) {
		drop_entry(j, &j->e[j->head++]);
		retired++;
	}
	j->retired += retired;
	return retired;
}

void journal_flush_before(struct journal *j, uint64_t seq)
{
	size_t keep = j->head;
	for (size_t i = j->head; i < j->n; i++) {
		if (j->e[i].seq < seq)
			drop_entry(j, &j->e[i]);
		else
			j->e[keep++] = j->e[i];
	}
	j->n = keep;
}

static void overlap_with(struct jentry *older, const struct jentry *done)
{
	uint64_t from = older->off > done->off ? older->off : done->off;
	uint64_t to_a = older->off + older->len, to_b = done->off + done->len;
	uint64_t to = to_a < to_b ? to_a : to_b;
	if (from >= to)
		return;
	memcpy(older->old + (from - older->off), done->new + (from - done->off), to - from);
	memcpy(older->new + (from - older->off), done->new + (from - done->off), to - from);
}

int journal_retire(struct journal *j, uint64_t seq)
{
	size_t i = j->head;
	while (i < j->n && j->e[i].seq != seq)
		i++;
	if (i == j->n)
		return 0;
	for (size_t k = j->head; k < i; k++)
		overlap_with(&j->e[k], &j->e[i]);
	drop_entry(j, &j->e[i]);
	memmove(j->e + i, j->e + i + 1, (j->n - i - 1) * sizeof(*j->e));
	j->n--;
	return 1;
}

uint64_t journal_first_pending(const struct journal *j, uint64_t none)
{
	return j->n > j->head ? j->e[j->head].seq : none;
}

size_t journal_pending(const struct journal *j)
{
	return j->n - j->head;
}

size_t journal_pending_at_least(const struct journal *j, uint32_t len)
{
	size_t c = 0;
	for (size_t i = j->head; i < j->n; i++)
		c += j->e[i].len >= len;
	return c;
}

int range_touches(uint64_t off, uint64_t len, const struct range *r, int n)
{
	for (int k = 0; k < n; k++)
		if (off < r[k].off + r[k].len && r[k].off < off + len)
			return 1;
	return 0;
}

static int touches(const struct jentry *e, const struct range *r, int n)
{
	return range_touches(e->off, e->len, r, n);
}

static uint64_t page_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

long journal_pending_outside(const struct journal *j, uint32_t len, const struct range *r, int n)
{
	long c = 0;
	for (size_t i = j->head; i < j->n; i++) {
		if (touches(&j->e[i], r, n))
			return -1;
		c += j->e[i].len >= len;
	}
	return c;
}

long journal_pending_pages_except(const struct journal *j, uint32_t page, const struct range *r, int n)
{
	long c = 0;
	for (size_t i = j->head; i < j->n; i++)
		if (!touches(&j->e[i], r, n))
			c += j->e[i].len / page;
	return c;
}

long journal_pending_copied(const struct journal *j, uint32_t page, const struct range *r, int n,
			    int (*known)(uint64_t))
{
	long c = 0;
	for (size_t i = j->head; i < j->n; i++) {
		const struct jentry *e = &j->e[i];
		if (touches(e, r, n))
			return -1;
		for (uint32_t at = 0; e->len % page == 0 && at < e->len; at += page)
			c += known(page_hash(e->new + at, page));
	}
	return c;
}

void journal_hash_copies(const struct journal *j, uint32_t page, const struct range *r, int n,
			 void (*add)(uint64_t))
{
	for (size_t i = j->head; i < j->n; i++) {
		const struct jentry *e = &j->e[i];
		if (!touches(e, r, n))
			continue;
		for (uint32_t at = 0; at + page <= e->len; at += page)
			add(page_hash(e->new + at, page));
	}
}

void journal_hash_write(const struct journal *j, uint64_t seq, uint32_t page, const struct range *r, int n,
			void (*add)(uint64_t))
{
	for (size_t i = j->head; i < j->n; i++) {
		const struct jentry *e = &j->e[i];
		if (e->seq != seq || !touches(e, r, n))
			continue;
		for (uint32_t at = 0; at + page <= e->len; at += page)
			add(page_hash(e->new + at, page));
	}
}

static int put_u64(FILE *f, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return fwrite(b, 1, 8, f) == 8 ? 0 : errno ? -errno : -EIO;
}

static int write_entries(FILE *f, const void *ctx)
{
	const struct journal *j = ctx;
	int rc = fwrite("PFJ1", 1, 4, f) == 4 ? 0 : -EIO;
	rc = rc ? rc : put_u64(f, journal_pending(j));
	for (size_t i = j->head; rc == 0 && i < j->n; i++) {
		const struct jentry *e = &j->e[i];
		rc = put_u64(f, e->seq);
		rc = rc ? rc : put_u64(f, e->off);
		rc = rc ? rc : put_u64(f, e->len);
		if (rc == 0 && (fwrite(e->old, 1, e->len, f) != e->len ||
				fwrite(e->new, 1, e->len, f) != e->len))
			rc = errno ? -errno : -EIO;
	}
	return rc;
}

/* A failed dump leaves no journal at path. */
int journal_dump(const struct journal *j, const char *path)
{
	return dump_file(path, write_entries, j);
}
