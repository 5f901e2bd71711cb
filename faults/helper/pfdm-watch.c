/*
 * pfdm-watch: the dm disk's trigger and hold (faults/dm/dm-disk.ts), as pfdisk has its own. The
 * kernel path has no process in the I/O path, so this one watches from beside it, every 100 us,
 * the block layer's counters of the loop device under dm-log-writes (its stat file): writes and
 * flushes completed. A flush makes every write before it durable, so "pending" is the writes
 * completed since the flush count last moved. When the armed trigger is met it suspends the
 * flakey device at once (no flush, no filesystem lock): requests under way complete, new ones
 * wait. That is the cut's hold; everything after it is the rig's.
 *
 *   pfdm-watch --device=NAME --stat=/sys/block/loopN/stat [--trace=FILE]
 *
 * Commands on stdin, one a line: "arm armed N" (N writes completed since the last flush), "arm
 * after-writes N" (since arming), "arm at-time MS", "arm none", "cut", "seen", "quit". Replies on stdout:
 * "ok" to an arm, "seen writes W flushes F since-flush S" (as the trigger counts them: read now
 * while armed, as the last arm found them otherwise), and once, "cut REASON PENDING MS" when it held I/O (PENDING: writes completed
 * since the last flush; MS: since arming; repeated to a later "cut"), or "error TEXT".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

enum trig { T_NONE, T_ARMED, T_AFTER_WRITES, T_AT_TIME };

static const char *device;
static int stat_fd = -1;
static enum trig trig = T_NONE;
static uint64_t trig_n, writes_at_arm, writes_at_flush, flushes_seen;
static struct timespec armed_at;
static int held;
static char cut_line[128]; /* the hold's reply, repeated to a later "cut" */
/* --trace=FILE: for a person reading why it cut, the arm line and the last TRACE_KEEP changes of
 * the counters before the hold (a load changes them thousands of times a second: the file stays
 * small), written at the hold or at exit. */
#define TRACE_KEEP 256
static FILE *trace;
static char kept[TRACE_KEEP][96];
static uint64_t changes; /* changes seen since the arm; the last TRACE_KEEP are in kept[] */
static uint64_t last_w;

static void trace_change(const char *line)
{
	snprintf(kept[changes % TRACE_KEEP], sizeof(kept[0]), "%s", line);
	changes++;
}

static void trace_write(void)
{
	if (!trace || !changes)
		return;
	uint64_t first = changes > TRACE_KEEP ? changes - TRACE_KEEP : 0;
	if (first)
		fprintf(trace, "(%llu earlier changes not kept)\n", (unsigned long long)first);
	for (uint64_t i = first; i < changes; i++)
		fputs(kept[i % TRACE_KEEP], trace);
	changes = 0;
	fflush(trace);
}

static double ms_since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1e3 + (now.tv_nsec - t->tv_nsec) / 1e6;
}

/* Writes and flushes the device has completed (fields 5 and 16 of its stat file). */
static int counters(uint64_t *writes, uint64_t *flushes)
{
	char buf[512];
	ssize_t n = pread(stat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	unsigned long long f[16];
	char *p = buf;
	for (int i = 0; i < 16; i++) {
		char *end;
		f[i] = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	*writes = f[4];
	*flushes = f[15];
	return 0;
}

static int suspend_holding(void)
{
	int fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct dm_ioctl io;
	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = sizeof(io);
	io.data_start = sizeof(io);
	io.flags = DM_SUSPEND_FLAG | DM_NOFLUSH_FLAG | DM_SKIP_LOCKFS_FLAG;
	snprintf(io.name, sizeof(io.name), "%s", device);
	int rc = ioctl(fd, DM_DEV_SUSPEND, &io) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

static void hold(const char *reason)
{
	uint64_t w = 0, f = 0;
	counters(&w, &f);
	int rc = suspend_holding();
	trace_write();
	if (rc) {
		printf("error suspending %s: %s\n", device, strerror(-rc));
	} else {
		held = 1;
		uint64_t pending = w > writes_at_flush ? w - writes_at_flush : 0;
		snprintf(cut_line, sizeof(cut_line), "cut %s %llu %.0f\n", reason, (unsigned long long)pending,
			 armed_at.tv_sec || armed_at.tv_nsec ? ms_since(&armed_at) : 0.0);
		fputs(cut_line, stdout);
	}
	fflush(stdout);
	trig = T_NONE;
}

/* Reads the counters and keeps what changed in the trace; -1 when nothing is armed or it has held. */
static int observe(void)
{
	uint64_t w, f;
	if (trig == T_NONE || held || counters(&w, &f) < 0)
		return -1;
	int flushed = f != flushes_seen;
	if (flushed)
		writes_at_flush = w;
	flushes_seen = f;
	if (trace && (flushed || w != last_w)) {
		char line[96];
		snprintf(line, sizeof(line), "%.3f writes %llu flushes %llu since-flush %llu\n", ms_since(&armed_at),
			 (unsigned long long)w, (unsigned long long)f, (unsigned long long)(w - writes_at_flush));
		trace_change(line);
	}
	last_w = w;
	return 0;
}

static void check(void)
{
	if (observe() < 0)
		return;
	int fire = (trig == T_ARMED && last_w - writes_at_flush >= trig_n) ||
		   (trig == T_AFTER_WRITES && last_w - writes_at_arm >= trig_n) ||
		   (trig == T_AT_TIME && ms_since(&armed_at) >= (double)trig_n);
	if (fire)
		hold(trig == T_ARMED ? "armed" : trig == T_AFTER_WRITES ? "after-writes" : "at-time");
}

static void command(char *line)
{
	line[strcspn(line, "\n")] = 0;
	char what[32];
	unsigned long long n = 0;
	if (strcmp(line, "cut") == 0) {
		if (held) {
			fputs(cut_line, stdout);
			fflush(stdout);
		} else {
			hold("manual");
		}
		return;
	}
	if (strcmp(line, "seen") == 0) {
		observe();
		printf("seen writes %llu flushes %llu since-flush %llu\n", (unsigned long long)last_w,
		       (unsigned long long)flushes_seen, (unsigned long long)(last_w - writes_at_flush));
		fflush(stdout);
		return;
	}
	if (sscanf(line, "arm %31s %llu", what, &n) >= 1) {
		observe(); /* the earlier arm's trace ends with the counters as they were when it was replaced */
		uint64_t w = 0;
		if (counters(&w, &flushes_seen) < 0) {
			printf("error reading the device's counters\n");
			fflush(stdout);
			return;
		}
		writes_at_arm = writes_at_flush = last_w = w;
		trace_write(); /* what an earlier arm saw */
		if (trace)
			fprintf(trace, "arm %s %llu at writes %llu flushes %llu\n", what, n, (unsigned long long)w, (unsigned long long)flushes_seen);
		clock_gettime(CLOCK_MONOTONIC, &armed_at);
		trig_n = n;
		trig = strcmp(what, "armed") == 0 ? T_ARMED
			: strcmp(what, "after-writes") == 0 ? T_AFTER_WRITES
			: strcmp(what, "at-time") == 0 ? T_AT_TIME : T_NONE;
		printf(held ? "error already cut\n" : "ok\n");
		fflush(stdout);
		return;
	}
	printf("error unknown command '%s'\n", line);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *stat_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--device=", 9) == 0)
			device = argv[i] + 9;
		else if (strncmp(argv[i], "--stat=", 7) == 0)
			stat_path = argv[i] + 7;
		else if (strncmp(argv[i], "--trace=", 8) == 0 && (trace = fopen(argv[i] + 8, "w")))
			setvbuf(trace, NULL, _IOLBF, 0);
	}
	if (!device || !stat_path) {
		fprintf(stderr, "usage: pfdm-watch --device=NAME --stat=FILE [--trace=FILE]\n");
		return 2;
	}
	stat_fd = open(stat_path, O_RDONLY | O_CLOEXEC);
	if (stat_fd < 0) {
		fprintf(stderr, "pfdm-watch: cannot open %s: %s\n", stat_path, strerror(errno));
		return 1;
	}
	char line[256];
	struct pollfd in = { .fd = 0, .events = POLLIN };
	const struct timespec tick = { 0, 100 * 1000 };
	for (;;) {
		int r = ppoll(&in, 1, trig == T_NONE ? NULL : &tick, NULL);
		if (r < 0 && errno != EINTR)
			return 1;
		if (r > 0) {
			if (!fgets(line, sizeof(line), stdin) || strncmp(line, "quit", 4) == 0) {
				trace_write();
				return 0;
			}
			command(line);
		}
		check();
	}
}
