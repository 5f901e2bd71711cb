/**
 * The sha256 of a file as it reads with writes laid over it in order, on a worker thread. A live
 * cycle's crash image is the image at the cut with the plan's writes applied (./materialize.ts);
 * hashing its 512 MiB took about 0.35 s of a core after it was written, before anything could
 * mount it. Hashing the image at the cut with the same writes laid over it gives the same digest
 * from a file nothing writes to any more, so it runs beside the copy, the scan and the recovery.
 */
import { Worker } from 'node:worker_threads';

/** Bytes written at an offset, in the order they are written: later ones win where they overlap. */
export interface Overlay {
  offset: number;
  data: Buffer;
}

/**
 * Worker-thread helpers (CommonJS source, for workers started with \`eval\`) shared by this hash and
 * the explore states' block digest (rig/explore/image-hash.ts): the pieces over each block, and a
 * block read with them laid over it.
 */
export const OVERLAY_HELPERS = `
const { readSync: readOverlaidSync } = require('node:fs');
/** block number -> the pieces over it, in order (blocks of \`block\` bytes, the last one \`blocks - 1\`). */
function piecesByBlock(pieces, block, blocks) {
  const over = new Map();
  for (const p of pieces) {
    if (p.data.byteLength === 0) continue;
    const last = Math.min(blocks - 1, Math.floor((p.offset + p.data.byteLength - 1) / block));
    for (let b = Math.floor(p.offset / block); b <= last; b++) {
      if (!over.has(b)) over.set(b, []);
      over.get(b).push(p);
    }
  }
  return over;
}
/** Reads \`want\` bytes at \`at\` into buf (zeros past the file's end), then lays \`pieces\` over them. */
function readOverlaid(fd, buf, at, want, pieces) {
  let got = 0;
  while (got < want) {
    const n = readOverlaidSync(fd, buf, got, want - got, at + got);
    if (n === 0) break;
    got += n;
  }
  buf.fill(0, got, want);
  for (const p of pieces || []) {
    const data = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength);
    const from = Math.max(at, p.offset);
    const to = Math.min(at + want, p.offset + data.length);
    if (from < to) data.copy(buf, from - at, from - p.offset, to - p.offset);
  }
}
`;

const HASH_OVERLAID = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, closeSync, fstatSync } = require('node:fs');
const { createHash } = require('node:crypto');
${OVERLAY_HELPERS}
const { path, pieces } = workerData;
const CHUNK = 8 * 1024 * 1024;
const fd = openSync(path, 'r');
try {
  // a write past the end makes the file longer, as it would the written copy
  const size = pieces.reduce((end, p) => Math.max(end, p.data.byteLength ? p.offset + p.data.byteLength : 0), fstatSync(fd).size);
  const over = piecesByBlock(pieces, CHUNK, Math.ceil(size / CHUNK));
  const hash = createHash('sha256');
  const buf = Buffer.alloc(CHUNK);
  for (let at = 0; at < size; at += CHUNK) {
    const want = Math.min(CHUNK, size - at);
    readOverlaid(fd, buf, at, want, over.get(at / CHUNK));
    hash.update(buf.subarray(0, want));
  }
  parentPort.postMessage(hash.digest('hex'));
} finally {
  closeSync(fd);
}
`;

/** The sha256 (hex) of `path` with `pieces` written over it in order; the file itself is only read. */
export function sha256WithOverlay(path: string, pieces: Overlay[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_OVERLAID, { eval: true, workerData: { path, pieces } });
    let digest: string | null = null;
    worker.once('message', (hex: string) => (digest = hex));
    worker.once('error', reject);
    worker.once('exit', (code) => (digest !== null ? resolve(digest) : reject(new Error(`hashing ${path} ended with code ${code} and no digest`))));
  });
}
