/** What a redo log's reader (MariaDB's ib_logfile0, MySQL's #innodb_redo) gives: the checkpoint, or why not. */

export interface Checkpoint {
  lsn: number;
  endLsn: number | null; // MariaDB: the end of the log at that checkpoint; MySQL keeps none
  block: number; // byte offset of the checkpoint block that won
  file?: string; // MySQL: the redo file that holds it, e.g. #innodb_redo/#ib_redo7
}

export type CheckpointRead = { checkpoint: Checkpoint } | { checkpoint: null; why: string };

/**
 * How a redo header is seen before it is parsed: given the file (relative to the datadir, as the
 * extent map names it: ./ib_logfile0, ./#innodb_redo/#ib_redo7) and its bytes as read. The
 * write-order check undoes the pending writes with it, to read the checkpoint that was durable.
 */
export type HeaderView = (rel: string, bytes: Buffer) => Uint8Array;
