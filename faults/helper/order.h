/* The order log: the latest writes, flushes, retirements and completions as the disk saw them, with the time. */
#ifndef PFDISK_ORDER_H
#define PFDISK_ORDER_H

#include <stdint.h>

enum order_kind { ORDER_WRITE = 1, ORDER_FLUSH = 2, ORDER_RETIRE = 3, ORDER_CUT = 4, ORDER_COMPLETE = 6 };

/*
 * One event (32 bytes as dumped). WRITE: a = seq, b = device offset, len = bytes (journaled, so
 * complete). FLUSH: a = the boundary (every seq below it is now durable), b = the flush's number
 * since the disk started. RETIRE: a = the newest seq the journal bound retired, b = how many.
 * CUT: a = the next seq (every seq from the journal's first is pending). COMPLETE (a durable cache
 * only): a = the seq of a write whose reply is sent; it is durable from here.
 */
struct order_event {
	uint32_t kind, len;
	uint64_t a, b;
	uint64_t t_ns; /* CLOCK_REALTIME, to set beside a trace of the server's system calls */
};

struct order_log {
	struct order_event *ring; /* NULL: no log kept */
	uint64_t cap, next;       /* next counts every event ever noted */
};

/* Keeps the latest `cap` events; 0 keeps none. Returns 0 or -ENOMEM. */
int order_init(struct order_log *o, uint64_t cap);
void order_note(struct order_log *o, enum order_kind kind, uint64_t a, uint64_t b, uint32_t len);
/* Writes the kept events, oldest first, to path (format: faults/order-log.ts), whole or not at all. */
int order_dump(const struct order_log *o, const char *path);

#endif
