#include "timing.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

int latency_parse(const char *spec, struct latency *l)
{
	l->n = 0;
	const char *at = spec;
	while (*at) {
		char *end;
		if (l->n == LATENCY_POINTS)
			return -EINVAL;
		double pct = strtod(at, &end);
		if (end == at || *end != ':')
			return -EINVAL;
		at = end + 1;
		double us = strtod(at, &end);
		if (end == at || (*end != ',' && *end != '\0') || us < 0)
			return -EINVAL;
		at = *end ? end + 1 : end;
		if (l->n > 0 && (pct <= l->pct[l->n - 1] || us < l->us[l->n - 1]))
			return -EINVAL; /* percents rise, latencies never fall */
		l->pct[l->n] = pct;
		l->us[l->n++] = us;
	}
	return l->n >= 2 && l->pct[0] == 0 && l->pct[l->n - 1] == 100 ? 0 : -EINVAL;
}

static uint64_t next_random(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

uint64_t latency_draw_ns(const struct latency *l, uint64_t *rng)
{
	if (l->n == 0)
		return 0;
	double u = (double)(next_random(rng) >> 11) / 9007199254740992.0 * 100.0; /* [0, 100) */
	int i = 0;
	while (i < l->n - 2 && u >= l->pct[i + 1])
		i++;
	double f = (u - l->pct[i]) / (l->pct[i + 1] - l->pct[i]);
	return (uint64_t)((l->us[i] + f * (l->us[i + 1] - l->us[i])) * 1000.0);
}

uint64_t pacing_start_ns(struct pacing *p, uint64_t now_ns, size_t len)
{
	uint64_t start = now_ns;
	if (p->iops && p->next_io_ns > start)
		start = p->next_io_ns;
	if (p->bytes_per_sec && p->next_byte_ns > start)
		start = p->next_byte_ns;
	/* What the limits allowed before start - PACING_BURST_NS and nobody took is gone. */
	uint64_t unused_from = start > PACING_BURST_NS ? start - PACING_BURST_NS : 0;
	if (p->iops)
		p->next_io_ns = (p->next_io_ns > unused_from ? p->next_io_ns : unused_from) + 1000000000ull / p->iops;
	if (p->bytes_per_sec)
		p->next_byte_ns = (p->next_byte_ns > unused_from ? p->next_byte_ns : unused_from) +
				  (uint64_t)((double)len * 1e9 / (double)p->bytes_per_sec);
	return start;
}

uint64_t monotonic_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/*
 * A sleeping thread wakes some tens of microseconds late on a busy host, which would add itself to
 * every service time. Sleeps end early by the lateness measured on the recent ones (a moving
 * average shared by all threads; a lost update between them costs nothing).
 */
static uint64_t wake_late_ns;
#define WAKE_LATE_MAX_NS 100000ull /* lateness past this is the host stalling, not waking: not corrected */

void sleep_until_ns(uint64_t t_ns)
{
	uint64_t now = monotonic_ns();
	if (t_ns <= now)
		return;
	uint64_t late = __atomic_load_n(&wake_late_ns, __ATOMIC_RELAXED);
	uint64_t aim = t_ns - (late < t_ns - now ? late : t_ns - now);
	if (aim > now) {
		struct timespec until = { (time_t)(aim / 1000000000ull), (long)(aim % 1000000000ull) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
			;
	}
	uint64_t woke = monotonic_ns();
	uint64_t seen = woke > aim ? woke - aim : 0;
	if (seen > WAKE_LATE_MAX_NS)
		seen = WAKE_LATE_MAX_NS;
	__atomic_store_n(&wake_late_ns, late - late / 8 + seen / 8, __ATOMIC_RELAXED);
}
