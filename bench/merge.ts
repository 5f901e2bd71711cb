/**
 * How `rig merge` scales: a generated torn-pages campaign (synthetic-campaign.ts: realistic
 * records, the recorded MariaDB logs kept as evidence) of 1,000 and of 10,000 cycles, cut into 64
 * shards each written as `rig campaign --shard I/64` writes it, then merged by the CLI in a child
 * process, as a user runs it. Per size: wall time and peak RSS (the child's VmHWM, polled every
 * 10 ms) of the merge proper, up to the moment junit.xml is in place, and of the whole command,
 * which then renders the HTML report (rig merge always does); and, as the baseline measured in the
 * same run, the time to read every shard's cycles.jsonl once (cat to /dev/null), with the ratios,
 * and the time this process takes to read and parse every record once (what any merge must do).
 * V8 lets its heap grow with the rate of allocation, not only with what is live, so the largest
 * size is merged once more with the heap capped (--max-old-space-size): that it finishes shows
 * the records are not held. Target: 10,000 cycles merged under 512 MB peak RSS and under 60 s.
 * Run from the project root: `make build && node dist/bench/merge.js`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../rig/paths.js';
import { CYCLES_FILE, streamCycleRecords } from '../rig/results/results-file.js';
import { generateShard, writeCampaign } from './synthetic-campaign.js';

const SHARDS = 64;
const SIZES = [1_000, 10_000];
const TARGET = { cycles: 10_000, mb: 512, seconds: 60 };
const CLI = join(PACKAGE_ROOT, 'dist', 'rig', 'cli', 'main.js');
const CAPPED_HEAP_MB = 128;

interface Run {
  ms: number; // start to exit
  peakMb: number; // VmHWM at exit
  mergeMs: number; // start to junit.xml in place
  mergePeakMb: number; // VmHWM then
}

/** The child's peak resident set so far, in MB; null once it is gone. */
function vmHwmMb(pid: number): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/** Runs `command`, stdout to /dev/null, timing it and polling its peak RSS; `mark` times the moment a
 * file appears, and with `stopAtMark` the command is stopped then. */
async function measure(command: string, args: string[], mark?: string, stopAtMark = false): Promise<Run> {
  const devNull = await open('/dev/null', 'w');
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', devNull.fd, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peakMb = 0;
  let mergeMs = NaN;
  let mergePeakMb = NaN;
  const poll = () => {
    peakMb = Math.max(peakMb, vmHwmMb(child.pid!) ?? 0);
    if (mark && Number.isNaN(mergeMs) && existsSync(mark)) {
      mergeMs = performance.now() - started;
      mergePeakMb = peakMb;
      if (stopAtMark) child.kill('SIGKILL');
    }
  };
  const timer = setInterval(poll, 10);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => (poll(), resolve(c))));
  const ms = performance.now() - started;
  clearInterval(timer);
  await devNull.close();
  const what = `${command} ${args.slice(0, 3).join(' ')} ... exited ${code}`;
  if (mark && Number.isNaN(mergeMs)) throw new Error(`${what} before writing ${mark}: ${stderr.trim()}`);
  if (!stopAtMark && code !== 0 && code !== 1) throw new Error(`${what}: ${stderr.trim()}`); // 1: the campaign failed, as generated
  return { ms, peakMb, mergeMs, mergePeakMb };
}

async function writeShards(root: string, cycles: number): Promise<string[]> {
  const dirs: string[] = [];
  for (let index = 1; index <= SHARDS; index++) {
    const dir = join(root, `shard-${index}`);
    await writeCampaign(dir, await generateShard({ cycles, preset: 'torn-pages', shard: { index, count: SHARDS } }));
    dirs.push(dir);
  }
  return dirs;
}

/** Milliseconds to read and parse every record of `files` once, here. */
async function parseMs(files: string[]): Promise<number> {
  const started = performance.now();
  let records = 0;
  for (const file of files) for await (const _ of streamCycleRecords(file)) records += 1;
  if (records === 0) throw new Error('no records parsed');
  return performance.now() - started;
}

interface Size { cycles: number; bytes: number; cat: Run; parseMs: number; merge: Run; capped: Run | null }

async function benchSize(root: string, cycles: number, capped: boolean): Promise<Size> {
  const dirs = await writeShards(join(root, `c${cycles}`), cycles);
  const files = dirs.map((d) => join(d, CYCLES_FILE));
  const bytes = (await Promise.all(files.map((f) => stat(f)))).reduce((sum, s) => sum + s.size, 0);
  const cat = await measure('cat', files);
  const parsed = await parseMs(files);
  const out = join(root, `c${cycles}`, 'merged');
  const merge = await measure(process.execPath, [CLI, 'merge', out, ...dirs], join(out, 'junit.xml'));
  const merged = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as { cycles: { count: number } };
  if (merged.cycles.count !== cycles) throw new Error(`merged ${merged.cycles.count} cycles of ${cycles}`);
  const cappedOut = join(root, `c${cycles}`, 'merged-capped');
  const cappedRun = capped
    ? await measure(process.execPath, [`--max-old-space-size=${CAPPED_HEAP_MB}`, CLI, 'merge', cappedOut, ...dirs], join(cappedOut, 'junit.xml'), true)
    : null;
  return { cycles, bytes, cat, parseMs: parsed, merge, capped: cappedRun };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const n = (count: number) => count.toLocaleString('en-US');
const mb = (megabytes: number) => `${megabytes.toFixed(0)} MB`;

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'rig-bench-merge-'));
  try {
    console.log(`rig merge of ${SHARDS} shards of a generated torn-pages campaign; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const rows = [];
    for (const cycles of SIZES) {
      const r = await benchSize(root, cycles, cycles === SIZES.at(-1));
      rows.push(r);
      const { merge, cat } = r;
      console.log(`${n(cycles)} cycles, ${(r.bytes / 1048576).toFixed(0)} MiB of cycles.jsonl:`);
      console.log(`  merge (results.json, cycles.jsonl, junit.xml; until junit.xml is written): ${s(merge.mergeMs)}, peak RSS ${mb(merge.mergePeakMb)}`);
      console.log(`  whole rig merge command, the HTML report included: ${s(merge.ms)}, peak RSS ${mb(merge.peakMb)} (the report ${s(merge.ms - merge.mergeMs)})`);
      console.log(`  baseline, cat of every shard's cycles.jsonl to /dev/null: ${s(cat.ms)}; merge / cat ${(merge.mergeMs / cat.ms).toFixed(1)}x`);
      console.log(`  every record read and parsed once, in node: ${s(r.parseMs)}; merge / parse ${(merge.mergeMs / r.parseMs).toFixed(1)}x`);
      if (r.capped) console.log(`  merge again with the heap capped at ${CAPPED_HEAP_MB} MB: ${s(r.capped.mergeMs)}, peak RSS ${mb(r.capped.mergePeakMb)} (stopped once junit.xml was written)`);
    }
    const [small, big] = rows as [typeof rows[0], typeof rows[0]];
    console.log(`ratio ${n(big.cycles)}/${n(small.cycles)} cycles: merge time ${(big.merge.mergeMs / small.merge.mergeMs).toFixed(1)}x, merge peak RSS ${(big.merge.mergePeakMb / small.merge.mergePeakMb).toFixed(2)}x, cat time ${(big.cat.ms / small.cat.ms).toFixed(1)}x`);
    const ok = big.merge.mergePeakMb < TARGET.mb && big.merge.mergeMs < TARGET.seconds * 1000;
    console.log(`target (${n(TARGET.cycles)} cycles merged under ${TARGET.mb} MB peak RSS and under ${TARGET.seconds} s, the report apart): ${ok ? 'met' : 'MISSED'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
