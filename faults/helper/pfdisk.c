/*
 * pfdisk: serves one image file as /disk through FUSE, with a write cache that can lose power.
 * Mechanism only: every write that is not durable yet is journaled (offset, length, old bytes, new
 * bytes): with a volatile cache, every write since the last completed flush; with a durable one
 * (power-loss protected), every write still in flight, as a write is durable once it completes.
 * Requests take a queue slot, start under IOPS and bandwidth limits and take a service time drawn
 * from a latency distribution, all as the driver says (none by default). At a cut the journal is
 * dumped and every further request, and every reply not yet sent, is held until the driver says
 * `release`, after which requests fail with EIO. Which pending writes land, and how
 * they tear, is decided later by the TypeScript driver from the dump. With --record, every write
 * (with its new bytes) and flush from the start is also appended to a file, in the order the disk
 * gave them their places (record.h).
 */
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "disk.h"

struct disk D = { .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER, .slot_free = PTHREAD_COND_INITIALIZER };

static struct options {
	const char *image, *control, *journal, *order_log, *record, *cache, *write_latency, *flush_latency;
	unsigned unit, page_size, queue_depth;
	unsigned long long journal_max, order_events, record_max, iops, bandwidth, latency_seed;
	int show_help;
} opts = { .order_events = 1ull << 18, .latency_seed = 1 }; /* the disk's settings have no defaults: the driver names each (rig/defaults.ts) */

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt option_spec[] = {
	OPT("--image=%s", image),     OPT("--control=%s", control),
	OPT("--journal=%s", journal), OPT("--unit=%u", unit),
	OPT("--page-size=%u", page_size), OPT("--journal-max=%llu", journal_max),
	OPT("--order-log=%s", order_log), OPT("--order-events=%llu", order_events),
	OPT("--record=%s", record),   OPT("--record-max=%llu", record_max),
	OPT("--cache=%s", cache),     OPT("--queue-depth=%u", queue_depth),
	OPT("--write-latency=%s", write_latency), OPT("--flush-latency=%s", flush_latency),
	OPT("--iops=%llu", iops),     OPT("--bandwidth=%llu", bandwidth),
	OPT("--latency-seed=%llu", latency_seed),
	OPT("-h", show_help),         OPT("--help", show_help),
	FUSE_OPT_END
};

static const char *DISK_NAME = "/disk";

void disk_cut_locked(const char *reason)
{
	if (D.cut)
		return;
	D.cut = 1; /* from here on new requests are held */
	D.cut_reason = reason;
	pthread_cond_broadcast(&D.slot_free); /* requests waiting for a queue slot are held instead */
	/*
	 * Dumping from here, not only once the writes under way are journaled: waiting for them drops
	 * the lock, and a cut reply (or the exit) that found the cut but no dump under way would
	 * answer with the counters below not yet taken and the journal not yet written.
	 */
	D.dumping = 1;
	while (D.inflight > 0) /* writes already under way finish journaling first */
		pthread_cond_wait(&D.changed, &D.lock);
	order_note(&D.order, ORDER_CUT, D.next_seq, 0, 0);
	record_cut(&D.record, D.next_seq);
	D.cut_pending = journal_pending(&D.journal);
	D.cut_pending_pages = journal_pending_at_least(&D.journal, D.page_size);
	/*
	 * From here the journal cannot change: no write is in flight, every new request is held, and
	 * a held flush never empties it. So the dump, which takes as long as hundreds of MiB take to
	 * write, runs without the lock: status and release still answer meanwhile.
	 */
	pthread_mutex_unlock(&D.lock);
	int rc = journal_dump(&D.journal, D.journal_path);
	int order_rc = D.order_path ? order_dump(&D.order, D.order_path) : 0;
	if (order_rc != 0) /* evidence beside the journal: the crash image does not need it */
		fprintf(stderr, "pfdisk: order log dump to %s failed: %s\n", D.order_path, strerror(-order_rc));
	pthread_mutex_lock(&D.lock);
	D.dump_rc = rc;
	D.dumping = 0;
	fprintf(stderr, "pfdisk: cut (%s): %llu pending writes, dump %s\n", reason,
		(unsigned long long)D.cut_pending, rc == 0 ? "written" : strerror(-rc));
	pthread_cond_broadcast(&D.changed);
}

void disk_wait_dumped_locked(void)
{
	while (D.dumping)
		pthread_cond_wait(&D.changed, &D.lock);
}

int disk_hold_locked(void)
{
	while (!D.released)
		pthread_cond_wait(&D.changed, &D.lock);
	return -EIO;
}

static void *timer_main(void *arg)
{
	uint64_t gen = (uint64_t)(uintptr_t)arg;
	struct timespec until;
	pthread_mutex_lock(&D.lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += D.trig_n / 1000;
	until.tv_nsec += (long)(D.trig_n % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	int rc = 0;
	while (!D.cut && D.arm_generation == gen && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&D.changed, &D.lock, &until);
	if (!D.cut && D.arm_generation == gen)
		disk_cut_locked("at-time");
	pthread_mutex_unlock(&D.lock);
	return NULL;
}

int disk_arm(enum trigger t, uint64_t n)
{
	pthread_mutex_lock(&D.lock);
	if (D.cut) {
		pthread_mutex_unlock(&D.lock);
		return -EALREADY;
	}
	D.trig = t;
	D.trig_n = n;
	D.writes_since_arm = 0;
	D.arm_generation++;
	memset(&D.stats, 0, sizeof(D.stats));
	pthread_cond_broadcast(&D.changed);
	uint64_t gen = D.arm_generation;
	pthread_mutex_unlock(&D.lock);
	if (t != TRIG_AT_TIME)
		return 0;
	pthread_t th;
	int rc = pthread_create(&th, NULL, timer_main, (void *)(uintptr_t)gen);
	if (rc != 0)
		return -rc;
	pthread_detach(th);
	return 0;
}

static int size_bucket(size_t len)
{
	int b = 0;
	for (size_t s = 512; s < len && b < SIZE_BUCKETS - 1; s <<= 1)
		b++;
	return b;
}

static void count_write_locked(off_t off, size_t len)
{
	struct stats *s = &D.stats;
	s->writes++;
	s->bytes_written += len;
	s->by_size[size_bucket(len)]++;
	if (len != D.page_size)
		return;
	s->page_writes++;
	s->page_writes_misaligned += (uint64_t)off % D.page_size != 0;
	if (len > D.unit || (uint64_t)off / D.unit == ((uint64_t)off + len - 1) / D.unit)
		return;
	if (s->page_writes_straddling < STRADDLE_OFFSETS)
		s->straddle_offsets[s->page_writes_straddling] = (uint64_t)off;
	s->page_writes_straddling++;
}

static int pf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (strcmp(path, DISK_NAME) == 0) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)D.size;
		st->st_blksize = 4096;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int pf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, DISK_NAME + 1, NULL, 0, 0);
	return 0;
}

static int pf_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, DISK_NAME) != 0)
		return -ENOENT;
	fi->direct_io = 1; /* the kernel caches nothing: every request reaches the journal */
	return 0;
}

/*
 * With D.lock held: admits a request to the device. It waits for a queue slot (with a queue
 * depth), then, if paced, for the start time the IOPS and bandwidth limits give it (sleeping
 * without the lock). Returns 0 with the request in service from *start (device_leave_locked when
 * it is done), or, if the cut came first, what a held request returns once released.
 */
static int device_admit_locked(size_t len, int paced, uint64_t *start)
{
	while (!D.cut && D.queue_depth && D.in_service >= D.queue_depth) {
		D.queued++;
		pthread_cond_wait(&D.slot_free, &D.lock);
		D.queued--;
	}
	if (D.cut)
		return disk_hold_locked();
	D.in_service++;
	uint64_t now = monotonic_ns();
	*start = paced ? pacing_start_ns(&D.pacing, now, len) : now;
	if (*start > now) {
		pthread_mutex_unlock(&D.lock);
		sleep_until_ns(*start);
		pthread_mutex_lock(&D.lock);
	}
	if (!D.cut)
		return 0;
	D.in_service--;
	return disk_hold_locked();
}

static void device_leave_locked(void)
{
	D.in_service--;
	pthread_cond_signal(&D.slot_free);
}

/* With D.lock held: waits (without it) until the request's service time is over at done_at. Its
 * reply is held if the cut came meanwhile. */
static int serve_until_locked(uint64_t done_at)
{
	if (done_at > monotonic_ns()) {
		pthread_mutex_unlock(&D.lock);
		sleep_until_ns(done_at);
		pthread_mutex_lock(&D.lock);
	}
	return D.cut ? disk_hold_locked() : 0;
}

static int pf_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	uint64_t start;
	pthread_mutex_lock(&D.lock);
	int held = D.cut ? disk_hold_locked() : device_admit_locked(len, 1, &start);
	if (!held)
		D.stats.reads++;
	pthread_mutex_unlock(&D.lock);
	if (held)
		return held;
	ssize_t n = pread(D.img_fd, buf, len, off);
	int rc = n < 0 ? -errno : (int)n;
	pthread_mutex_lock(&D.lock);
	device_leave_locked();
	pthread_mutex_unlock(&D.lock);
	return rc;
}

static int read_old(unsigned char *old, size_t len, off_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(D.img_fd, old + got, len - got, off + (off_t)got);
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	memset(old + got, 0, len - got);
	return 0;
}

/*
 * Writes to the same stripe of the device serialise on its lock, so overlapping writes read their
 * old bytes, reach the image and take their sequence numbers in one order; writes to different
 * stripes proceed in parallel. The global lock is held only to admit a write and to journal it.
 */
#define STRIPES 64
#define STRIPE_SHIFT 20 /* 1 MiB; a write is at most max_write (1 MiB), so it spans <= 2 stripes */
static pthread_mutex_t stripe_locks[STRIPES];

static void stripes_of(off_t off, size_t len, unsigned *a, unsigned *b)
{
	unsigned x = (unsigned)(((uint64_t)off >> STRIPE_SHIFT) % STRIPES);
	unsigned y = (unsigned)((((uint64_t)off + len - 1) >> STRIPE_SHIFT) % STRIPES);
	*a = x < y ? x : y;
	*b = x < y ? y : x;
}

/* Writes all of buf at off. Returns 0 or -errno; *done says how much reached the image. */
static int pwrite_all(const void *buf, size_t len, off_t off, size_t *done)
{
	*done = 0;
	while (*done < len) {
		ssize_t n = pwrite(D.img_fd, (const char *)buf + *done, len - *done, off + (off_t)*done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		*done += (size_t)n;
	}
	return 0;
}

/*
 * The old bytes are read and the journal slot reserved before the write reaches the image, so
 * journaling a write that reached it cannot fail. A write the image takes only in part is undone
 * (its old bytes put back) and fails; if even that fails, the disk is broken: the image holds
 * bytes no journal entry explains, and the cut says so instead of dumping a journal that lies.
 */
static int write_journaled(const char *buf, size_t len, off_t off, uint64_t *seq_out)
{
	unsigned a, b;
	stripes_of(off, len, &a, &b);
	pthread_mutex_lock(&stripe_locks[a]);
	if (b != a)
		pthread_mutex_lock(&stripe_locks[b]);
	unsigned char *data = malloc(2 * len);
	int rc = data ? read_old(data, len, off) : -ENOMEM, undo_rc = 0;
	size_t done = 0, undone = 0;
	if (rc == 0) {
		memcpy(data + len, buf, len);
		rc = pwrite_all(buf, len, off, &done);
		if (rc != 0 && done > 0)
			undo_rc = pwrite_all(data, done, off, &undone);
	}
	pthread_mutex_lock(&D.lock);
	if (rc == 0) {
		uint64_t seq = *seq_out = D.next_seq++;
		size_t retired = journal_add(&D.journal, seq, (uint64_t)off, (uint32_t)len, data);
		order_note(&D.order, ORDER_WRITE, seq, (uint64_t)off, (uint32_t)len);
		record_write(&D.record, seq, (uint64_t)off, (uint32_t)len, data + len);
		if (retired)
			order_note(&D.order, ORDER_RETIRE, D.journal.e[D.journal.head - 1].seq, retired, 0);
	}
	if (undo_rc != 0 && !D.broken[0])
		snprintf(D.broken, sizeof(D.broken), "a failed write of %zu bytes at %llu could not be undone: %s",
			 len, (unsigned long long)off, strerror(-undo_rc));
	if (--D.inflight == 0)
		pthread_cond_broadcast(&D.changed);
	pthread_mutex_unlock(&D.lock);
	if (rc != 0)
		free(data);
	if (b != a)
		pthread_mutex_unlock(&stripe_locks[b]);
	pthread_mutex_unlock(&stripe_locks[a]);
	return rc;
}

static void add_copy_hash(uint64_t h);

/*
 * With D.lock held, once a journaled write's service time is over: its reply, held if the cut came
 * meanwhile (it stays pending in the journal). On a durable cache the write is durable from here:
 * it leaves the journal, and a copy it wrote counts as durable for the armed trigger.
 */
static int write_complete_locked(uint64_t seq, uint64_t done_at)
{
	int rc = serve_until_locked(done_at);
	if (rc != 0 || D.cache != CACHE_DURABLE)
		return rc;
	if (D.n_copies > 0)
		journal_hash_write(&D.journal, seq, D.page_size, D.copies, D.n_copies, add_copy_hash);
	journal_retire(&D.journal, seq);
	D.stats.completed_durable++;
	order_note(&D.order, ORDER_COMPLETE, seq, 0, 0);
	record_complete(&D.record, seq, D.next_seq);
	return 0;
}

static int pf_write(const char *path, const char *buf, size_t len, off_t off,
		    struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	if ((uint64_t)off + len > D.size)
		return -ENOSPC;
	uint64_t start = 0, done_at = 0, seq = 0;
	pthread_mutex_lock(&D.lock);
	if (!D.cut && D.trig == TRIG_AFTER_WRITES && !range_touches(off, len, D.skips, D.n_skips) && ++D.writes_since_arm > D.trig_n)
		disk_cut_locked("after-writes");
	int rc = D.cut ? disk_hold_locked() : device_admit_locked(len, 1, &start);
	int in_service = rc == 0;
	if (rc == 0)
		rc = D.broken[0] ? -EIO : journal_reserve(&D.journal, D.inflight + 1);
	if (rc == 0) {
		count_write_locked(off, len);
		D.inflight++;
		done_at = start + latency_draw_ns(&D.write_latency, &D.latency_rng);
	}
	pthread_mutex_unlock(&D.lock);
	if (rc == 0)
		rc = write_journaled(buf, len, off, &seq);
	pthread_mutex_lock(&D.lock);
	if (rc == 0)
		rc = write_complete_locked(seq, done_at);
	if (in_service)
		device_leave_locked();
	pthread_mutex_unlock(&D.lock);
	return rc < 0 ? rc : (int)len;
}

static void add_copy_hash(uint64_t h)
{
	D.copy_hashes[D.next_copy_hash++ % COPY_HASHES] = h;
}

static int copy_is_durable(uint64_t h)
{
	for (unsigned i = 0; i < COPY_HASHES && i < D.next_copy_hash; i++)
		if (D.copy_hashes[i] == h)
			return 1;
	return 0;
}

/*
 * Whether an armed flush should cut. The count is of pages, a write of several pages counting each
 * (RocksDB writes an SST in a few 1 MiB writes). With copy ranges set (the doublewrite area), only home writes
 * count: page writes outside the ranges whose content equals a copy made durable inside them, with
 * no copy pending. The cut then lands while pages whose doublewrite copy is durable are being
 * overwritten in place, which is what doublewrite claims to survive; pages the server writes
 * without a copy (fresh pages the redo log rebuilds) do not count.
 */
static int armed_ready_locked(void)
{
	if (D.n_copies == 0)
		return journal_pending_pages_except(&D.journal, D.page_size, D.skips, D.n_skips) >= (long)D.trig_n;
	long home = journal_pending_outside(&D.journal, D.page_size, D.copies, D.n_copies);
	if (home < 0 || (uint64_t)home < D.trig_n)
		return 0;
	home = journal_pending_copied(&D.journal, D.page_size, D.copies, D.n_copies, copy_is_durable);
	return home >= 0 && (uint64_t)home >= D.trig_n;
}

/*
 * The flush barrier. Durability is modelled by the journal, not by the host: the image file's
 * host never loses power, so a host fsync would cost time and prove nothing. What matters is that
 * a flush completes only here, after every earlier write has left the journal.
 */
static int pf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path, (void)datasync, (void)fi;
	uint64_t start;
	pthread_mutex_lock(&D.lock);
	if (!D.cut) {
		D.stats.flushes++;
		if (D.trig == TRIG_ARMED && armed_ready_locked())
			disk_cut_locked("armed");
	}
	int rc = D.cut ? disk_hold_locked() : device_admit_locked(0, 0, &start);
	int in_service = rc == 0;
	if (rc == 0)
		rc = serve_until_locked(start + latency_draw_ns(&D.flush_latency, &D.latency_rng));
	/* a durable cache's pending writes are in flight: a flush covers only writes already complete */
	int covers = rc == 0 && D.cache == CACHE_VOLATILE;
	if (covers && D.n_copies > 0)
		journal_hash_copies(&D.journal, D.page_size, D.copies, D.n_copies, add_copy_hash);
	if (covers)
		journal_flush_before(&D.journal, D.next_seq);
	if (rc == 0) { /* the boundary: every seq below it is durable (a durable cache's first in flight) */
		uint64_t boundary = covers ? D.next_seq : journal_first_pending(&D.journal, D.next_seq);
		order_note(&D.order, ORDER_FLUSH, boundary, ++D.flushes_done, 0);
		record_flush(&D.record, boundary, D.flushes_done);
	}
	if (in_service)
		device_leave_locked();
	pthread_mutex_unlock(&D.lock);
	return rc;
}

static void *pf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	conn->max_write = 1 << 20;
	if (D.queue_depth) { /* the kernel's own bound on requests in flight must not be the lower one */
		conn->max_background = D.queue_depth;
		conn->congestion_threshold = D.queue_depth;
	}
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->direct_io = 1;
	int rc = control_start(opts.control);
	if (rc != 0) {
		fprintf(stderr, "pfdisk: control socket %s: %s\n", opts.control, strerror(-rc));
		exit(3);
	}
	return NULL;
}

static const struct fuse_operations ops = {
	.getattr = pf_getattr,
	.readdir = pf_readdir,
	.open = pf_open,
	.read = pf_read,
	.write = pf_write,
	.fsync = pf_fsync,
	.init = pf_init,
};

static void usage(const char *prog)
{
	printf("usage: %s --image=FILE --control=SOCKET --journal=FILE --unit=N --page-size=N\n"
	       "       --journal-max=N --cache=volatile|durable [device timing] [FUSE options] MOUNTPOINT\n\n"
	       "Serves FILE as MOUNTPOINT/disk with a write cache that can lose power.\n"
	       "All of these are required:\n"
	       "    --image=FILE         image file to serve (its size is the disk's size)\n"
	       "    --control=SOCKET     unix socket for control commands (created once mounted)\n"
	       "    --journal=FILE       where the journal is dumped at the cut\n"
	       "    --unit=N             atomic write unit in bytes, for the straddle count\n"
	       "    --page-size=N        page size in bytes the armed trigger counts\n"
	       "    --journal-max=N      journal bound in bytes: past it the oldest writes retire as durable\n"
	       "    --cache=MODE         volatile: a write is durable once a flush covers it; durable\n"
	       "                         (power-loss protected): once it completes\n"
	       "Device timing (optional, none by default):\n"
	       "    --write-latency=P:US,...  a write's service time: microseconds at percentiles, from 0\n"
	       "                         to 100, interpolated (e.g. 0:80,50:120,99:400,100:900)\n"
	       "    --flush-latency=P:US,...  the same for a flush\n"
	       "    --iops=N             requests (reads and writes) start at most N a second\n"
	       "    --bandwidth=N        bytes a second they carry, at most\n"
	       "    --queue-depth=N      requests in service at once; more wait for a slot\n"
	       "    --latency-seed=N     seed of the latency draws (default 1)\n"
	       "Optional too:\n"
	       "    --order-log=FILE     at the cut, also dump the latest writes and flushes with their times\n"
	       "    --order-events=N     how many events the order log keeps (default 262144)\n"
	       "    --record=FILE        from the start, append every write (with its new bytes) and flush\n"
	       "                         to FILE, in the disk's order, until the cut (format: record.h)\n"
	       "    --record-max=N       the recording's bound in bytes (required with --record): at it a\n"
	       "                         truncated event ends the recording\n\n",
	       prog);
}

int main(int argc, char *argv[])
{
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&stripe_locks[i], NULL);
	/* a write past the file size limit must fail that write (EFBIG), not kill the disk */
	signal(SIGXFSZ, SIG_IGN);
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	if (fuse_opt_parse(&args, &opts, option_spec, NULL) == -1)
		return 2;
	int missing = !opts.image || !opts.control || !opts.journal || !opts.unit || !opts.page_size || !opts.journal_max || !opts.cache;
	if (opts.show_help || missing) {
		usage(argv[0]);
		if (opts.show_help) {
			fuse_opt_add_arg(&args, "--help");
			args.argv[0][0] = '\0';
		}
		return opts.show_help ? 0 : 2;
	}
	if (opts.record ? opts.record_max < RECORD_MIN_BYTES : opts.record_max != 0) {
		fprintf(stderr, "pfdisk: --record=FILE needs --record-max=BYTES (at least %zu), and --record-max needs --record\n",
			RECORD_MIN_BYTES);
		return 2;
	}
	if (strcmp(opts.cache, "volatile") != 0 && strcmp(opts.cache, "durable") != 0) {
		fprintf(stderr, "pfdisk: --cache is volatile or durable, not '%s'\n", opts.cache);
		return 2;
	}
	D.cache = opts.cache[0] == 'd' ? CACHE_DURABLE : CACHE_VOLATILE;
	const char *bad = opts.write_latency && latency_parse(opts.write_latency, &D.write_latency) != 0 ? opts.write_latency
		: opts.flush_latency && latency_parse(opts.flush_latency, &D.flush_latency) != 0 ? opts.flush_latency : NULL;
	if (bad) {
		fprintf(stderr, "pfdisk: latency '%s' is not P:US,... with percents rising from 0 to 100 and latencies never falling\n", bad);
		return 2;
	}
	D.pacing = (struct pacing){ .iops = opts.iops, .bytes_per_sec = opts.bandwidth };
	D.queue_depth = opts.queue_depth;
	D.latency_rng = opts.latency_seed ? opts.latency_seed : 1;
	int rc;
	D.img_fd = open(opts.image, O_RDWR);
	struct stat st;
	if (D.img_fd < 0 || fstat(D.img_fd, &st) != 0) {
		fprintf(stderr, "pfdisk: %s: %s\n", opts.image, strerror(errno));
		return 2;
	}
	if (opts.record && (rc = record_open(&D.record, opts.record, opts.record_max)) != 0) {
		fprintf(stderr, "pfdisk: %s: %s\n", opts.record, strerror(-rc));
		return 2;
	}
	D.size = (uint64_t)st.st_size;
	D.unit = opts.unit;
	D.page_size = opts.page_size;
	D.journal_path = opts.journal;
	journal_init(&D.journal, opts.journal_max);
	D.order_path = opts.order_log;
	if (order_init(&D.order, opts.order_log ? opts.order_events : 0) != 0) {
		fprintf(stderr, "pfdisk: no memory for %llu order log events\n", opts.order_events);
		return 2;
	}
	/* service times are slept to the microsecond: the default 50 µs of timer slack, which every
	 * FUSE thread inherits from this one, would add itself to each */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	fuse_opt_add_arg(&args, "-f");
	fuse_opt_add_arg(&args, "-ofsname=pfdisk,subtype=pfdisk");
	char threads[64]; /* every request in service sleeps in a thread of its own; the default of 10 would be the bound */
	snprintf(threads, sizeof(threads), "-omax_threads=%u,max_idle_threads=%u", D.queue_depth + 16, D.queue_depth + 16);
	if (D.queue_depth)
		fuse_opt_add_arg(&args, threads);
	rc = fuse_main(args.argc, args.argv, &ops, NULL);
	pthread_mutex_lock(&D.lock); /* unmounted mid-dump: finish the journal before exiting */
	disk_wait_dumped_locked();
	record_close(&D.record);
	pthread_mutex_unlock(&D.lock);
	fuse_opt_free_args(&args);
	unlink(opts.control);
	return rc;
}
