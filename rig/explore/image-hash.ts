/**
 * A state's crash image sha256, on a worker thread and off the critical path. The state's image is
 * the clean image with its landed units written over it, and the clean image does not change
 * while the state is judged, so the worker hashes the clean image with those pieces laid over it
 * while the scan disk mounts the working image (a mount writes) and the server recovers on it.
 * The hash must be awaited before the images move on to the next barrier.
 */
import { Worker } from 'node:worker_threads';

/** Bytes that replace the clean image's at an offset, in the order they were written. */
export interface Overlay {
  offset: number;
  data: Buffer;
}

const HASH_WITH_OVERLAY = `
const { workerData, parentPort } = require('node:worker_threads');
const { openSync, readSync, closeSync, fstatSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { path, pieces } = workerData;
const hash = createHash('sha256');
const fd = openSync(path, 'r');
const CHUNK = 8 * 1024 * 1024;
const buf = Buffer.alloc(CHUNK);
try {
  const size = fstatSync(fd).size;
  for (let at = 0; at < size; at += CHUNK) {
    const want = Math.min(CHUNK, size - at);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, at + got);
      if (n === 0) break;
      got += n;
    }
    buf.fill(0, got, want);
    for (const p of pieces) {
      const data = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength);
      const from = Math.max(at, p.offset);
      const to = Math.min(at + want, p.offset + data.length);
      if (from < to) data.copy(buf, from - at, from - p.offset, to - p.offset);
    }
    hash.update(buf.subarray(0, want));
  }
} finally {
  closeSync(fd);
}
parentPort.postMessage(hash.digest('hex'));
`;

export function sha256WithOverlay(path: string, pieces: Overlay[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_WITH_OVERLAY, { eval: true, workerData: { path, pieces: pieces.map((p) => ({ offset: p.offset, data: new Uint8Array(p.data) })) } });
    worker.once('message', (hex: string) => resolve(hex));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`hashing ${path} ended with code ${code}`));
    });
  });
}
