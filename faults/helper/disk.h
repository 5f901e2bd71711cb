/* The power-fail disk's shared state: the image, the journal, the trigger and the cut. */
#ifndef PFDISK_DISK_H
#define PFDISK_DISK_H

#include <pthread.h>
#include <stdint.h>

#include "journal.h"
#include "order.h"
#include "record.h"
#include "timing.h"

/* volatile: a write is durable once a flush covers it; durable (power-loss protected): once it completes. */
enum cache_mode { CACHE_VOLATILE, CACHE_DURABLE };

enum trigger { TRIG_NONE, TRIG_MANUAL, TRIG_ARMED, TRIG_AFTER_WRITES, TRIG_AT_TIME };

#define SIZE_BUCKETS 13 /* <=512, 1k, 2k ... 1M, larger */
#define COPY_RANGES 8 /* device ranges where the server keeps page copies (its doublewrite area) */
#define SKIP_RANGES 32 /* device ranges whose writes the armed count ignores (temporary tablespaces) */
#define COPY_HASHES 256 /* hashes of the latest pages made durable in those ranges (two batches of 128) */
#define STRADDLE_OFFSETS 64 /* device offsets of the first straddling page writes, kept for the rig to map */

struct stats {
	uint64_t reads, writes, flushes, bytes_written;
	uint64_t completed_durable; /* writes a durable cache retired at their completion */
	uint64_t by_size[SIZE_BUCKETS];
	uint64_t page_writes;            /* writes of exactly the page size */
	uint64_t page_writes_misaligned; /* ... not at a multiple of the page size */
	uint64_t page_writes_straddling; /* ... crossing an atomic-unit boundary (page <= unit) */
	uint64_t straddle_offsets[STRADDLE_OFFSETS]; /* the first of them, in arrival order */
};

struct disk {
	int img_fd;
	uint64_t size;
	uint32_t unit, page_size;
	const char *journal_path;
	enum cache_mode cache;

	/* the device's timing (timing.h): service latencies, rate limits and a queue depth (0: none) */
	struct latency write_latency, flush_latency;
	struct pacing pacing;
	uint64_t latency_rng;
	unsigned queue_depth, in_service, queued;
	pthread_cond_t slot_free; /* a queue slot came free, or the cut fired */

	pthread_mutex_t lock;
	pthread_cond_t changed; /* cut fired, released, or trigger re-armed */
	struct journal journal;
	uint64_t next_seq;
	struct order_log order; /* the latest writes and flushes, dumped beside the journal at the cut */
	const char *order_path; /* NULL: no order log */
	uint64_t flushes_done;  /* completed flushes since the disk started */
	struct record record;   /* every write and flush from the start, with the new bytes (f NULL: none) */
	struct stats stats;

	enum trigger trig;
	uint64_t trig_n;          /* pending pages, writes, or milliseconds */
	struct range copies[COPY_RANGES]; /* armed counts home writes: page writes outside these */
	int n_copies;
	struct range skips[SKIP_RANGES]; /* armed does not count page writes touching these */
	int n_skips;
	uint64_t copy_hashes[COPY_HASHES]; /* a ring: content hashes of durable copies */
	unsigned next_copy_hash;
	uint64_t writes_since_arm;
	uint64_t arm_generation;

	uint64_t inflight; /* writes admitted before the cut and not yet journaled (each has a slot) */
	char broken[160];  /* why the image no longer matches the journal; a cut then answers err */
	int cut, released;
	const char *cut_reason;
	uint64_t cut_pending, cut_pending_pages;
	int dumping; /* the cut is being captured: writes under way finish, then the journal is written without the lock */
	int dump_rc;
};

extern struct disk D;

/* With D.lock held: fire the cut (capture the journal to disk, hold all further I/O). The lock is
 * dropped while the journal is written; it is held again, and the dump done, on return. */
void disk_cut_locked(const char *reason);
/* With D.lock held: wait until a dump under way is done (D.dump_rc is then its result). */
void disk_wait_dumped_locked(void);
/* With D.lock held: block a request that arrived at or after the cut; returns -EIO once released. */
int disk_hold_locked(void);
/* Sets the trigger; starts the timer for TRIG_AT_TIME. Returns 0 or -errno. */
int disk_arm(enum trigger t, uint64_t n);
/* Starts the control socket server thread. Returns 0 or -errno. */
int control_start(const char *sock_path);

#endif
