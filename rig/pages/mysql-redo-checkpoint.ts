/**
 * The checkpoint LSN MySQL 8.0.30+ recovers from. The redo log is a set of files
 * #innodb_redo/#ib_redoN (N grows as files are consumed; #ib_redoN_tmp are spares, unused). Each
 * file starts with four 512-byte blocks, each ending in a CRC-32C of its first 508 bytes: the file
 * header (format at 0, 6 since 8.0.30; the LSN the file starts at, 8 bytes at 8; the creator, e.g.
 * "MySQL 9.7.4", at 16), checkpoint 1 at 512, encryption at 1024, checkpoint 2 at 1536. A
 * checkpoint block holds its LSN (8 bytes at 8); MySQL writes it into the file that holds that LSN
 * and recovery takes the largest valid one over every file. Checked on 9.7.4: the LSN read here
 * is the one its log names ("The latest found checkpoint is at lsn = N in redo log file
 * ./#innodb_redo/#ib_redo7").
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c } from './crc32c.js';
import { readLsn, readU32 } from './page-format.js';
import type { CheckpointRead, HeaderView } from './checkpoint-read.js';

export const MYSQL_REDO_DIR = '#innodb_redo';
const BLOCK = 512;
const HEADER_BYTES = 4 * BLOCK;
const CHECKPOINT_BLOCKS = [BLOCK, 3 * BLOCK];
const FORMAT_8_0_30 = 6;

export interface MysqlRedoHeader {
  format: number;
  startLsn: number;
  creator: string;
  /** Valid checkpoint blocks with a non-zero LSN (a block never written is zeros, its CRC valid). */
  checkpoints: { block: number; lsn: number }[];
}

const blockValid = (buf: Uint8Array, at: number): boolean => crc32c(buf, at, at + BLOCK - 4) === readU32(buf, at + BLOCK - 4);

export type MysqlRedoHeaderRead = { header: MysqlRedoHeader } | { header: null; why: string };

const unread = (why: string): MysqlRedoHeaderRead => ({ header: null, why });

/** One file's header, or null with why it is not one MySQL 8.0.30+ wrote. */
export function readMysqlRedoHeader(header: Uint8Array): MysqlRedoHeaderRead {
  if (header.length < HEADER_BYTES) return unread('shorter than its header');
  if (!blockValid(header, 0)) return unread('its header block fails its checksum');
  const format = readU32(header, 0);
  if (format < FORMAT_8_0_30) return unread(`format ${format} is older than MySQL 8.0.30's`);
  const creator = Buffer.from(header.subarray(16, 48)).toString('latin1').replace(/\0.*$/s, '');
  const checkpoints = CHECKPOINT_BLOCKS.filter((at) => blockValid(header, at) && readLsn(header, at + 8) > 0)
    .map((block) => ({ block, lsn: readLsn(header, block + 8) }));
  return { header: { format, startLsn: readLsn(header, 8), creator, checkpoints } };
}

/**
 * The newest valid checkpoint over every redo file (its file relative to the datadir, e.g.
 * #innodb_redo/#ib_redo7; no end LSN: MySQL keeps none), or null with why there is none. Each
 * header is seen through `view` (rig/pages/redo-checkpoint.ts).
 */
export async function readMysqlCheckpoint(datadir: string, view: HeaderView = (_rel, bytes) => bytes): Promise<CheckpointRead> {
  const dir = join(datadir, MYSQL_REDO_DIR);
  const names = (await readdir(dir).catch(() => [])).filter((name) => /^#ib_redo\d+$/.test(name));
  if (!names.length) return { checkpoint: null, why: `no #ib_redoN file in ${MYSQL_REDO_DIR}` };
  let best: { lsn: number; block: number; file: string } | null = null;
  const problems: string[] = [];
  for (const name of names) {
    const read = readMysqlRedoHeader(view(`./${MYSQL_REDO_DIR}/${name}`, await readHead(join(dir, name))));
    if (!read.header) {
      problems.push(`${name}: ${read.why}`);
      continue;
    }
    for (const c of read.header.checkpoints) {
      if (!best || c.lsn > best.lsn) best = { lsn: c.lsn, block: c.block, file: `${MYSQL_REDO_DIR}/${name}` };
    }
  }
  if (best) return { checkpoint: { lsn: best.lsn, endLsn: null, block: best.block, file: best.file } };
  return { checkpoint: null, why: `no valid checkpoint block in ${names.length} redo file(s)${problems.length ? ` (${problems.join('; ')})` : ''}` };
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await file.read(buf, 0, HEADER_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
