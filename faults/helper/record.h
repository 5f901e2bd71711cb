/* The recording: every write (with its new bytes) and flush from the start, in the disk's order. */
#ifndef PFDISK_RECORD_H
#define PFDISK_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "order.h"

/*
 * The file (format: faults/recording.ts): "PFR1", then events, each a struct order_event with t_ns
 * from CLOCK_MONOTONIC (the clock Node's process.hrtime reads), a write's `len` new bytes after it.
 * Kinds as the order log's: WRITE (a = seq, b = device offset), FLUSH (a = boundary, b = number),
 * COMPLETE (a durable cache only: a = seq, durable from here), CUT (a = next seq), and RECORD_TRUNCATED (a = the first seq not recorded) once the next event
 * would take the file past its bound. After a cut or truncated event nothing more is recorded.
 * The file never exceeds the bound: room for the closing event is always kept.
 * A failed write to the file (ENOSPC) stops the recording with a line on stderr; the file then
 * ends with no closing event, perhaps in the middle of one.
 */
enum { RECORD_TRUNCATED = 5 };
#define RECORD_MIN_BYTES (4 + 2 * sizeof(struct order_event)) /* the magic, one event, the closing one */

struct record {
	FILE *f; /* NULL: not recording (none asked for, closed, or failed) */
	char *buf;
	const char *path;
	uint64_t bytes, max;
};

/* Creates (truncates) path and writes the magic. Returns 0 or -errno. */
int record_open(struct record *r, const char *path, uint64_t max);
void record_write(struct record *r, uint64_t seq, uint64_t off, uint32_t len, const void *data);
void record_flush(struct record *r, uint64_t boundary, uint64_t number);
void record_complete(struct record *r, uint64_t seq, uint64_t next);
/* Notes the cut and writes everything out: the file is complete when this returns. */
void record_cut(struct record *r, uint64_t next);
/* Writes out what is buffered and closes the file (at exit). */
void record_close(struct record *r);

#endif
