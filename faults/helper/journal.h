/* Journal of the writes that are not durable yet: since the last completed flush (a volatile cache),
 * or still in flight (a durable cache). */
#ifndef PFDISK_JOURNAL_H
#define PFDISK_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct jentry {
	uint64_t seq;
	uint64_t off;
	uint32_t len;
	unsigned char *old; /* bytes the write overwrote; one allocation of 2*len, owned */
	unsigned char *new; /* bytes the write brought: old + len */
};

struct journal {
	struct jentry *e;
	size_t n, cap;
	size_t head;        /* entries before head have retired */
	uint64_t bytes;     /* old+new bytes held */
	uint64_t max_bytes; /* bound; past it the oldest entries retire as durable */
	uint64_t retired;   /* entries retired by the bound */
};

void journal_init(struct journal *j, uint64_t max_bytes);
/* Makes room for `slots` more entries, so that as many journal_add calls cannot fail. 0 or -ENOMEM. */
int journal_reserve(struct journal *j, size_t slots);
/* Into a reserved slot; takes ownership of data: 2*len bytes, the old bytes then the new. Returns
 * how many of the oldest entries the bound retired to make room (j->e[j->head - 1] the newest). */
size_t journal_add(struct journal *j, uint64_t seq, uint64_t off, uint32_t len, unsigned char *data);
/* A flush that began when `seq` was the next sequence number makes every earlier write durable. */
void journal_flush_before(struct journal *j, uint64_t seq);
/*
 * A durable cache's completed write: it leaves the journal, durable. Its bytes are on the device
 * whatever becomes of the older writes still pending: where one overlaps it, that write's old and
 * new bytes both become the completed write's, so neither rolling it back nor landing it can
 * undo a completed write. Returns 1, or 0 if seq was no longer pending (a bound retired it).
 */
int journal_retire(struct journal *j, uint64_t seq);
/* The seq of the oldest pending write, or `none` when nothing is pending. */
uint64_t journal_first_pending(const struct journal *j, uint64_t none);
size_t journal_pending(const struct journal *j);
size_t journal_pending_at_least(const struct journal *j, uint32_t len);
struct range { uint64_t off, len; };
/* Whether [off, off + len) overlaps any of the n ranges. */
int range_touches(uint64_t off, uint64_t len, const struct range *r, int n);
/* Pending writes of at least len bytes outside the n ranges; -1 while any pending write touches one. */
long journal_pending_outside(const struct journal *j, uint32_t len, const struct range *r, int n);
/* Pages pending in writes of a page or more that touch none of the n ranges: a write of several
 * pages (an SST's 1 MiB writes, writeback merging a file's pages) counts each whole page. */
long journal_pending_pages_except(const struct journal *j, uint32_t page, const struct range *r, int n);
/* Pages of pending writes outside the ranges whose content hash `known` accepts (a write of several
 * pages, as buffered writeback merges them, counts each); -1 as above. */
long journal_pending_copied(const struct journal *j, uint32_t page, const struct range *r, int n,
			    int (*known)(uint64_t));
/* Calls add with the hash of each page of the pending writes that touch the ranges. */
void journal_hash_copies(const struct journal *j, uint32_t page, const struct range *r, int n,
			 void (*add)(uint64_t));
/* The same for the pending write seq alone. */
void journal_hash_write(const struct journal *j, uint64_t seq, uint32_t page, const struct range *r, int n,
			void (*add)(uint64_t));
/* Writes the pending entries to path (format: faults/journal.ts), whole or not at all.
 * Returns 0 or -errno. */
int journal_dump(const struct journal *j, const char *path);

#endif
