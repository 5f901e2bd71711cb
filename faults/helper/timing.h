/* The device's timing, as numbers: latency drawn from percentiles, and start times under rate limits. */
#ifndef PFDISK_TIMING_H
#define PFDISK_TIMING_H

#include <stddef.h>
#include <stdint.h>

#define LATENCY_POINTS 16

/* A latency distribution as points of its inverse CDF: at `pct[i]` percent, `us[i]` microseconds.
 * The first point is at 0, the last at 100; between points the latency is interpolated linearly.
 * n == 0: no latency. */
struct latency {
	int n;
	double pct[LATENCY_POINTS], us[LATENCY_POINTS];
};

/* Parses "P:US,P:US,..." (e.g. "0:80,50:120,99:400,100:900"). Returns 0 or -EINVAL. */
int latency_parse(const char *spec, struct latency *l);
/* One draw, in nanoseconds, advancing the generator state *rng (xorshift64*, never 0). */
uint64_t latency_draw_ns(const struct latency *l, uint64_t *rng);

/* IOPS and bandwidth limits as a schedule of start times: requests start no faster than 1/iops,
 * and than bytes_per_sec carries their bytes, on average. A device idle for a while may start what
 * its limits allowed in the last PACING_BURST_NS at once (a token bucket that holds that much): a
 * request that reaches the helper late, as on a busy host, does not lose its turn. 0: no limit. */
#define PACING_BURST_NS 1000000ull
struct pacing {
	uint64_t iops, bytes_per_sec;
	uint64_t next_io_ns, next_byte_ns; /* the earliest start the limits allow the next request */
};

/* The start time of a request of len bytes arriving at now_ns, and books its share of the limits. */
uint64_t pacing_start_ns(struct pacing *p, uint64_t now_ns, size_t len);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t monotonic_ns(void);
/* Sleeps until the monotonic clock reads t_ns (at once if it has passed), aiming early by how late
 * recent sleeps woke. */
void sleep_until_ns(uint64_t t_ns);

#endif
