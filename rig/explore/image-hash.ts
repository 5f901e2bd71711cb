/**
 * The sha256 of an image file on a worker thread: a state's crash image is hashed on the other
 * core while its scan disk comes up and the scan reads it (half a second for 512 MiB here), and
 * the hash is taken before the recovering server writes anything.
 */
import { Worker } from 'node:worker_threads';

const HASH_FILE = `
const { workerData, parentPort } = require('node:worker_threads');
const { readSync } = require('node:fs');
const { createHash } = require('node:crypto');
const hash = createHash('sha256');
const buf = Buffer.alloc(8 * 1024 * 1024);
for (let at = 0; ; ) {
  const n = readSync(workerData, buf, 0, buf.length, at);
  if (n === 0) break;
  hash.update(buf.subarray(0, n));
  at += n;
}
parentPort.postMessage(hash.digest('hex'));
`;

/** Hashes the file open as fd (the caller's, closed by the caller once this settles): the file
 * may be renamed meanwhile, as the scan disk does when it adopts the image. */
export function sha256OnWorker(fd: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASH_FILE, { eval: true, workerData: fd });
    worker.once('message', (hex: string) => resolve(hex));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`hashing an image ended with code ${code}`));
    });
  });
}
