/**
 * The checkpoint LSN recovery starts from, read from the redo log's header the way the server
 * reads it. MariaDB 10.8+ (ib_logfile0, format "Phys"; 11.8.9 writes the same, checked on its
 * files and against the LSN its recovery starts from): two checkpoint blocks at 4096 and 8192,
 * each the checkpoint LSN (8 bytes), the end LSN at that checkpoint (8), and a CRC-32C of the
 * first 60 bytes at +60; the valid block with the larger LSN wins. MySQL 8.0.30+ keeps no
 * ib_logfile0: its #innodb_redo files are read by mysql-redo-checkpoint.ts. Other formats
 * (MariaDB before 10.8, MySQL before 8.0.30) are not read: null, with the reason.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Checkpoint, CheckpointRead, HeaderView } from './checkpoint-read.js';
import { crc32c } from './crc32c.js';
import { MYSQL_REDO_DIR, readMysqlCheckpoint } from './mysql-redo-checkpoint.js';
import { readLsn, readU32 } from './page-format.js';

const FORMAT_PHYS = 0x50687973; // "Phys"
const CHECKPOINT_BLOCKS = [4096, 8192];
export const REDO_HEADER_BYTES = 12288;

export function readCheckpointHeader(header: Uint8Array): CheckpointRead {
  if (header.length < REDO_HEADER_BYTES) return { checkpoint: null, why: 'the redo log is shorter than its header' };
  if (readU32(header, 0) !== FORMAT_PHYS) return { checkpoint: null, why: 'not a MariaDB 10.8+ redo log (no "Phys" format tag)' };
  let best: Checkpoint | null = null;
  for (const block of CHECKPOINT_BLOCKS) {
    if (crc32c(header, block, block + 60) !== readU32(header, block + 60)) continue;
    const lsn = readLsn(header, block);
    if (!best || lsn > best.lsn) best = { lsn, endLsn: readLsn(header, block + 8), block };
  }
  return best ? { checkpoint: best } : { checkpoint: null, why: 'neither checkpoint block has a valid checksum' };
}

const asRead: HeaderView = (_rel, bytes) => bytes;

/** The checkpoint of the datadir's redo log, or why it could not be read. */
export async function readCheckpoint(datadir: string, view: HeaderView = asRead): Promise<CheckpointRead> {
  const file = await open(join(datadir, 'ib_logfile0'), 'r').catch(() => null);
  if (!file) {
    const mysql = await readMysqlCheckpoint(datadir, view);
    return mysql.checkpoint ? mysql : { checkpoint: null, why: `no ib_logfile0, and ${MYSQL_REDO_DIR}: ${mysql.why}` };
  }
  try {
    const header = Buffer.alloc(REDO_HEADER_BYTES);
    const { bytesRead } = await file.read(header, 0, REDO_HEADER_BYTES, 0);
    return readCheckpointHeader(view('./ib_logfile0', header.subarray(0, bytesRead)));
  } finally {
    await file.close();
  }
}
