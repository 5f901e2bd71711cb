import type { LogEventKind } from '../results/types.js';

/**
 * The error-log lines the rig recognises, for MariaDB 10.11 / 11.x (MyRocks included) and MySQL 8.0 / 8.4 / 9.7.
 * Rules are tried in order and the first match wins, so the narrow ones come first.
 * A rule with kind `null` marks a line as deliberately unclassified (it would otherwise
 * be caught by a broader rule below it).
 */
export interface LogRule {
  kind: LogEventKind | null;
  pattern: RegExp;
  noise?: boolean; // repeated advice that says nothing about this cut: never shown as context
}

export const LOG_RULES: readonly LogRule[] = [
  // Advice and attempts, not findings: "Set innodb_force_recovery=1 to ignore corrupted pages",
  // MariaDB's "Trying to recover page ... from the doublewrite buffer" and MySQL's
  // "Database page corruption ... Trying to recover it from the doublewrite file/buffer"
  // (the outcome follows on its own line).
  { kind: null, pattern: /innodb_force_recovery=\d+ to ignore/i, noise: true },
  { kind: null, pattern: /Trying to recover (?:it|page)\b.*\bfrom the doublewrite/i },

  { kind: 'doublewrite-restore', pattern: /\b(?:Recovered|Restored|Restoring) page\b.*\bdoublewrite\b/i },

  { kind: 'lsn-in-future', pattern: /\bis in the future\b/i },
  { kind: 'lsn-in-future', pattern: /\b(?:LSN|log sequence number)\b.*\bis greater than\b/i },

  // MyRocks (MariaDB 11.8) when RocksDB will not open: the status of its write-ahead log reader,
  // which under the default recovery mode (absolute consistency) stops on any broken record, the
  // tail included ("RocksDB: Error opening instance, Status Code: 2, Status: Corruption: truncated
  // header"; also "truncated record body", "checksum mismatch"). Whether the break is a tail the
  // cut left is the disk's record to say (rig/cycle/rocksdb-writes.ts), not the line's.
  {
    kind: 'rocksdb-wal',
    pattern: /\bRocksDB: Error opening instance\b.*\bCorruption: (?:truncated header|truncated record body|checksum mismatch|bad record length|error reading trailing data|error in middle of record|missing start of fragmented record|partial record without end|unknown record type)/i,
  },
  // Anything else RocksDB calls corrupt when it will not open: an SST file ("Corruption: Bad table
  // magic number: ... in ./#rocksdb/000012.sst"), the MANIFEST, a block checksum
  { kind: 'corruption', pattern: /\bRocksDB: Error opening instance\b.*\bCorruption:/i },
  { kind: 'corruption', pattern: /\bcorrupted (?:page|file|datafile|tablespace)\b/i },
  { kind: 'corruption', pattern: /\bpage corruption\b/i },
  { kind: 'corruption', pattern: /\bwrong space ID\b/i },
  { kind: 'corruption', pattern: /\bchecksum mismatch\b/i },
  { kind: 'corruption', pattern: /\bRecovery failed to read page\b/i },
  { kind: 'corruption', pattern: /\bPage read from tablespace is corrupted\b/i },
  // MariaDB 10.11 when page 0 of a file is torn and it cannot restore it ("The first page of file
  // ./db/t.ibd is corrupted"), and what a query on such a table is told
  { kind: 'corruption', pattern: /\bThe first page of file\b.*\bis corrupted\b/i },
  { kind: 'corruption', pattern: /\bTable\b.*\bis corrupted\b/i },
  // MariaDB 11.8 when page 0 of an undo tablespace is torn and no copy fits: "Unable to read
  // first page of file .//undo001" (after "... could not be found in the doublewrite buffer")
  { kind: 'corruption', pattern: /\bUnable to read first page of file\b/i },
  // MySQL 9.7 when a torn page 0 of a tablespace has no copy: "[FATAL] Tablespace '4' mentioned
  // in the redo log is corrupted in a way it is unrecoverable by double-write buffer, ..."
  { kind: 'corruption', pattern: /\bis corrupted in a way it is unrecoverable\b/i },
  // MySQL 9.7 when a page and its first doublewrite copy are both corrupt: it dumps both, then a
  // fatal error ("Dumping the data file page (page_id=[page id: space=6, page number=54]):")
  { kind: 'corruption', pattern: /\bDumping the data file page\b/i },
  // MySQL 9.7 with DETECT_ONLY: "[FATAL] Database page corruption of tablespace ./sbtest/sbtest3.ibd
  // space_id: 6 page_num: 41. Cannot recover it from the doublewrite buffer because ..."
  { kind: 'corruption', pattern: /\bCannot recover it from the doublewrite buffer\b/i },

  { kind: 'abort', pattern: /\bAborting\b/ },
  { kind: 'abort', pattern: /registration as a STORAGE ENGINE failed/i },
  { kind: 'abort', pattern: /\bAssertion failure\b|\bFailing assertion\b/i },
  { kind: 'abort', pattern: /Unknown\/unsupported storage engine: InnoDB/i },
  { kind: 'abort', pattern: /\bPlugin initialization aborted\b/i },
  { kind: 'abort', pattern: /\bFailed to initialize plugins\b/i }, // a forced plugin (--rocksdb=FORCE) failed
  { kind: 'abort', pattern: /Failed to initialize DD Storage Engine|Data Dictionary initialization failed/i },
  { kind: 'abort', pattern: /\b(?:mysqld|mariadbd) got signal \d+/i },

  { kind: 'recovery-start', pattern: /\bStarting crash recovery\b/i },
  { kind: 'recovery-start', pattern: /\bDatabase was not shut ?down normally\b/i },
  { kind: 'recovery-start', pattern: /\bTo recover: .*\bpages\b/ },

  { kind: 'recovery-done', pattern: /\bCrash recovery finished\b/i },
  { kind: 'recovery-done', pattern: /\bApply batch completed\b/i },

  // MySQL's X Plugin also says "ready for connections"; only the server's own line counts.
  { kind: null, pattern: /\bX Plugin ready for connections\b/i },
  { kind: 'ready', pattern: /\bready for connections\b/i },

  { kind: 'error', pattern: /\[ERROR\]/i },
];

/** True for a line that only repeats generic advice (e.g. "Set innodb_force_recovery=1 ..."). */
export function isNoiseLine(text: string): boolean {
  return LOG_RULES.some((rule) => rule.noise === true && rule.pattern.test(text));
}
