/*
 * The control channel: a unix socket, one command per line, one reply per command:
 * `ok {json}` or `err <reason>`.
 *   status                  counters, journal size, trigger, cut state
 *   arm none|manual         no automatic cut
 *   arm armed N             cut at the next flush that finds >= N pages pending in writes of a page
 *                           or more (a 1 MiB write counts 64 pages of 16 KiB)
 *   arm after-writes N      cut as the (N+1)th write since arming arrives (it is held), skip ranges aside
 *   arm at-time MS          cut MS milliseconds after arming
 *   copy-range OFF LEN      a device range holding page copies (the doublewrite area): armed then
 *                           counts only home writes (outside the ranges, equal to a copy made
 *                           durable in them), and waits while a write into one is pending
 *   copy-range none         forget the ranges: armed counts the pages of every write again
 *   skip-range OFF LEN      a device range whose writes neither armed nor after-writes counts
 *                           (temporary tablespaces, which recovery never reads); `skip-range none`
 *                           forgets them
 *   cut                     cut now
 *   wait-cut MS             reply once the cut has fired, or `err timeout` after MS
 *   release                 after a cut: fail held and later requests with EIO
 * Both cut replies come once the journal dump is done, and give the status only if it was written
 * and explains the image; a failed dump or a broken disk is an `err`, so no crash image is built
 * from a journal that lies.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "disk.h"

static const char *trigger_name(enum trigger t)
{
	static const char *names[] = { "none", "manual", "armed", "after-writes", "at-time" };
	return names[t];
}

static void reply_status(FILE *out)
{
	pthread_mutex_lock(&D.lock);
	struct stats s = D.stats;
	fprintf(out,
		"ok {\"cut\":%s,\"cutReason\":\"%s\",\"released\":%s,\"dumping\":%s,\"dumpError\":%d,\"broken\":\"%s\","
		"\"trigger\":\"%s\",\"triggerN\":%llu,\"pending\":%zu,\"pendingPageWrites\":%zu,"
		"\"cutPending\":%llu,\"cutPendingPageWrites\":%llu,\"journalBytes\":%llu,\"retired\":%llu,"
		"\"reads\":%llu,\"writes\":%llu,\"flushes\":%llu,\"bytesWritten\":%llu,"
		"\"pageWrites\":%llu,\"pageWritesMisaligned\":%llu,\"pageWritesStraddling\":%llu,"
		"\"unit\":%u,\"pageSize\":%u,\"cache\":\"%s\",\"completedDurable\":%llu,\"inService\":%u,\"queued\":%u,"
		"\"writesBySize\":[",
		D.cut ? "true" : "false", D.cut ? D.cut_reason : "", D.released ? "true" : "false",
		D.dumping ? "true" : "false", D.dump_rc, D.broken, trigger_name(D.trig), (unsigned long long)D.trig_n,
		journal_pending(&D.journal), journal_pending_at_least(&D.journal, D.page_size),
		(unsigned long long)D.cut_pending, (unsigned long long)D.cut_pending_pages,
		(unsigned long long)D.journal.bytes, (unsigned long long)D.journal.retired,
		(unsigned long long)s.reads, (unsigned long long)s.writes,
		(unsigned long long)s.flushes, (unsigned long long)s.bytes_written,
		(unsigned long long)s.page_writes, (unsigned long long)s.page_writes_misaligned,
		(unsigned long long)s.page_writes_straddling, D.unit, D.page_size,
		D.cache == CACHE_DURABLE ? "durable" : "volatile", (unsigned long long)s.completed_durable,
		D.in_service, D.queued);
	for (int i = 0; i < SIZE_BUCKETS; i++)
		fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)s.by_size[i]);
	fprintf(out, "],\"copyRanges\":%d,\"skipRanges\":%d,\"straddleOffsets\":[", D.n_copies, D.n_skips);
	for (uint64_t i = 0; i < s.page_writes_straddling && i < STRADDLE_OFFSETS; i++)
		fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)s.straddle_offsets[i]);
	fprintf(out, "]}\n");
	pthread_mutex_unlock(&D.lock);
}

/* `NAME OFF LEN` adds a device range to the list, `NAME none` empties it. */
static void set_ranges(FILE *out, const char *name, const char *arg, unsigned long long len, int got,
		       struct range *list, int *count, int max)
{
	pthread_mutex_lock(&D.lock);
	if (got == 2 && strcmp(arg, "none") == 0) {
		*count = 0;
		fprintf(out, "ok {}\n");
		pthread_mutex_unlock(&D.lock);
		return;
	}
	char *end = NULL;
	unsigned long long off = got >= 2 ? strtoull(arg, &end, 10) : 0;
	if (got < 3 || !end || *end || len == 0)
		fprintf(out, "err %s takes a device offset and a length above zero\n", name);
	else if (*count == max)
		fprintf(out, "err at most %d %ss\n", max, name);
	else {
		list[(*count)++] = (struct range){ off, len };
		fprintf(out, "ok {}\n");
	}
	pthread_mutex_unlock(&D.lock);
}

/* After the cut: the status, or why the journal the crash image needs is missing. */
static void reply_cut(FILE *out)
{
	pthread_mutex_lock(&D.lock);
	disk_wait_dumped_locked();
	int rc = D.dump_rc;
	char broken[sizeof(D.broken)];
	memcpy(broken, D.broken, sizeof(broken));
	pthread_mutex_unlock(&D.lock);
	if (broken[0])
		fprintf(out, "err disk broken: %s\n", broken);
	else if (rc != 0)
		fprintf(out, "err journal dump to %s failed: %s\n", D.journal_path, strerror(-rc));
	else
		reply_status(out);
}

static void wait_cut(FILE *out, long ms)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&D.lock);
	int rc = 0;
	while (!D.cut && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&D.changed, &D.lock, &until);
	int cut = D.cut;
	pthread_mutex_unlock(&D.lock);
	if (cut)
		reply_cut(out);
	else
		fprintf(out, "err timeout\n");
}

static int parse_trigger(const char *name, enum trigger *t)
{
	for (enum trigger i = TRIG_NONE; i <= TRIG_AT_TIME; i++)
		if (strcmp(name, trigger_name(i)) == 0)
			return *t = i, 0;
	return -1;
}

static void handle(FILE *out, char *line)
{
	char cmd[32] = "", arg[32] = "";
	unsigned long long n = 0;
	int got = sscanf(line, "%31s %31s %llu", cmd, arg, &n);
	if (strcmp(cmd, "status") == 0) {
		reply_status(out);
	} else if (strcmp(cmd, "arm") == 0) {
		enum trigger t;
		if (got < 2 || parse_trigger(arg, &t) != 0)
			fprintf(out, "err unknown trigger '%s'\n", arg);
		else if ((t == TRIG_NONE || t == TRIG_MANUAL) != (got == 2) || (got == 3 && n == 0 && t != TRIG_AFTER_WRITES))
			fprintf(out, "err trigger '%s' takes %s\n", arg, got == 2 ? "a count" : "no count");
		else if (disk_arm(t, n) != 0)
			fprintf(out, "err already cut\n");
		else
			fprintf(out, "ok {}\n");
	} else if (strcmp(cmd, "copy-range") == 0) {
		set_ranges(out, cmd, arg, n, got, D.copies, &D.n_copies, COPY_RANGES);
	} else if (strcmp(cmd, "skip-range") == 0) {
		set_ranges(out, cmd, arg, n, got, D.skips, &D.n_skips, SKIP_RANGES);
	} else if (strcmp(cmd, "cut") == 0) {
		pthread_mutex_lock(&D.lock);
		int was = D.cut;
		disk_cut_locked("manual");
		pthread_mutex_unlock(&D.lock);
		if (was)
			fprintf(out, "err already cut\n");
		else
			reply_cut(out);
	} else if (strcmp(cmd, "wait-cut") == 0) {
		wait_cut(out, got >= 2 ? atol(arg) : 0);
	} else if (strcmp(cmd, "release") == 0) {
		pthread_mutex_lock(&D.lock);
		int cut = D.cut;
		if (cut) {
			D.released = 1;
			pthread_cond_broadcast(&D.changed);
		}
		pthread_mutex_unlock(&D.lock);
		fprintf(out, cut ? "ok {}\n" : "err not cut\n");
	} else {
		fprintf(out, "err unknown command '%s'\n", cmd);
	}
	fflush(out);
}

static void *conn_main(void *arg)
{
	int fd = (int)(intptr_t)arg;
	FILE *in = fdopen(fd, "r"), *out = fdopen(dup(fd), "w");
	char line[256];
	while (in && out && fgets(line, sizeof(line), in))
		handle(out, line);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return NULL;
}

static void *accept_main(void *arg)
{
	int ls = (int)(intptr_t)arg;
	for (;;) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return NULL;
		}
		pthread_t th;
		if (pthread_create(&th, NULL, conn_main, (void *)(intptr_t)fd) != 0)
			close(fd);
		else
			pthread_detach(th);
	}
}

int control_start(const char *sock_path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(sock_path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, sock_path);
	unlink(sock_path);
	int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0)
		return -errno;
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(ls, 16) != 0) {
		int e = errno;
		close(ls);
		return -e;
	}
	pthread_t th;
	int rc = pthread_create(&th, NULL, accept_main, (void *)(intptr_t)ls);
	if (rc != 0)
		return -rc;
	pthread_detach(th);
	return 0;
}
