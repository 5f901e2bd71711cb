/**
 * An explore state's crash-image digest, on a worker thread and off the critical path: the sha256
 * of the sha256s of the image's blocks (DIGEST_BLOCK), in order (the last block may be shorter). A whole-
 * file sha256 would read and hash the whole image (512 MiB in the quick campaigns) for every state,
 * about 0.7 s of a core each, most of the rig's own work per state; with the blocks' digests kept
 * per lane, a state hashes only the blocks it or the barriers since the last state wrote. A lane
 * starts from the snapshot's digests, hashed once while the recording's load runs
 * (./record-load.ts), and a block of zeros (a sparse image's holes) costs a comparison, not a hash.
 * The same digest of any file, from a shell: blocksDigestCommand (rig/results/crash-image-digest.ts).
 *
 * The state's image is the clean image with its landed units written over it, and the clean image
 * does not change while the state is judged, so the worker hashes the clean image with those
 * pieces laid over it while the scan disk mounts the working image (a mount writes) and the server
 * recovers on it. The hash must be awaited before the images move on to the next barrier.
 */
import { Worker } from 'node:worker_threads';
import { DIGEST_BLOCK } from '../results/crash-image-digest.js';
import { OVERLAY_HELPERS, type Overlay } from '../../faults/overlay-sha256.js';

/** Bytes that replace the clean image's at an offset, in the order they were written. */
export type { Overlay };

/** Each block's sha256 of an image, or null where not known (./state-image.ts keeps the clean image's). */
export type BlockDigests = Array<Uint8Array | null>;

export interface ImageDigest {
  blocksSha256: string;
  clean: BlockDigests; // the blocks of the file itself (no piece over them) whose digest is known
}

/** The worker's loop: one request at a time, in the order sent, with one block buffer for all. */
const DIGEST_LOOP = `
const { parentPort } = require('node:worker_threads');
const { openSync, closeSync, fstatSync } = require('node:fs');
const { createHash } = require('node:crypto');
${OVERLAY_HELPERS}
let buf = null;
let zeros = null;
const zeroDigests = new Map(); // by length: a sparse image's holes read as zeros, most of its blocks
function blockDigest(bytes) {
  if (!bytes.equals(zeros.subarray(0, bytes.length))) return createHash('sha256').update(bytes).digest();
  let d = zeroDigests.get(bytes.length);
  if (!d) zeroDigests.set(bytes.length, (d = createHash('sha256').update(bytes).digest()));
  return d;
}
function digest({ path, pieces, known, block }) {
  if (!buf || buf.length !== block) {
    buf = Buffer.alloc(block);
    zeros = Buffer.alloc(block);
  }
  const fd = openSync(path, 'r');
  const top = createHash('sha256');
  let clean;
  try {
    const size = fstatSync(fd).size;
    const blocks = Math.ceil(size / block);
    clean = new Array(blocks).fill(null);
    const over = piecesByBlock(pieces, block, blocks);
    for (let b = 0; b < blocks; b++) {
      const at = b * block;
      const want = Math.min(block, size - at);
      const mine = over.get(b);
      const cached = known && known[b] ? known[b] : null;
      if (!mine && cached) {
        clean[b] = cached;
        top.update(cached);
        continue;
      }
      readOverlaid(fd, buf, at, want, mine);
      if (mine) clean[b] = cached;
      const digest = blockDigest(buf.subarray(0, want));
      if (!mine) clean[b] = new Uint8Array(digest);
      top.update(digest);
    }
  } finally {
    closeSync(fd);
  }
  return { blocksSha256: top.digest('hex'), clean };
}
parentPort.on('message', (request) => {
  try {
    parentPort.postMessage({ id: request.id, ...digest(request) });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: String(error && error.message ? error.message : error) });
  }
});
`;

type Reply = { id: number; error?: string } & Partial<ImageDigest>;

/**
 * A worker thread that digests images, kept for as many requests as its owner sends (an explore
 * lane sends one per state: a worker started for each cost about 30 ms of a core). It holds the
 * rig open only while a request is in flight; close() ends it.
 */
export class DigestWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (d: ImageDigest) => void; reject: (e: Error) => void }>();
  private next = 1;

  /** The blocks digest of the file at path with pieces laid over it in order (blocksSha256WithOverlay). */
  digest(path: string, pieces: Overlay[], known: BlockDigests | null = null, block = DIGEST_BLOCK): Promise<ImageDigest> {
    const worker = this.started();
    const id = this.next++;
    const request = { id, path, pieces: pieces.map((p) => ({ offset: p.offset, data: new Uint8Array(p.data) })), known, block };
    return new Promise<ImageDigest>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
    this.failAll(new Error('the digest worker was closed'));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(DIGEST_LOOP, { eval: true });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if (reply.error !== undefined) waiting.reject(new Error(`hashing failed: ${reply.error}`));
      else waiting.resolve({ blocksSha256: reply.blocksSha256!, clean: reply.clean! });
    });
    const gone = (error: Error) => {
      if (this.worker === worker) this.worker = null; // the next request starts another
      this.failAll(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the digest worker ended with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}

/**
 * The blocks digest of the file at path with pieces laid over it in order, on a worker of its own.
 * `known` holds digests of the file's own blocks from an earlier call, null for each block written
 * since: a stale entry gives a wrong digest, so the caller forgets every block it writes (forgetBlocks).
 */
export async function blocksSha256WithOverlay(path: string, pieces: Overlay[], known: BlockDigests | null = null, block = DIGEST_BLOCK): Promise<ImageDigest> {
  const worker = new DigestWorker();
  try {
    return await worker.digest(path, pieces, known, block);
  } finally {
    await worker.close();
  }
}

/** The blocks digest of a file (what `rig repro` checks a rebuilt explore state against, with the record's block size). */
export async function blocksSha256File(path: string, block = DIGEST_BLOCK): Promise<string> {
  return (await blocksSha256WithOverlay(path, [], null, block)).blocksSha256;
}

/** Forgets the digest of every block the range [offset, offset + length) touches. */
export function forgetBlocks(known: BlockDigests, offset: number, length: number): void {
  if (length <= 0) return;
  const last = Math.min(known.length - 1, Math.floor((offset + length - 1) / DIGEST_BLOCK));
  for (let b = Math.floor(offset / DIGEST_BLOCK); b <= last; b++) known[b] = null;
}
