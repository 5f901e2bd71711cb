#!/usr/bin/env node
// Who breaks the write-ahead order: the server's own order of page writes, data-file flushes and
// checkpoint writes (a strace of the load server by scripts/trace/mariadbd, run with
// TRACE_SYNC_IO=1 so page writes are pwrite64 calls) set beside the disk's order log of the same
// cycle (cut/order.bin, device offsets named through recover/extents.json).
//   node scripts/trace-write-order.mjs CYCLE_DIR [TRACE_DIR]
// Three answers, over the whole traced run and not only at the cut:
// 1. The server's order: at each checkpoint write (LSN C), is every page version below C that the
//    server had written covered by a flush of its file that began after the write returned and
//    ended before the checkpoint write? An uncovered one is a change the checkpoint claims durable
//    that the server never asked to be flushed; the disk's order log then says whether the disk had
//    received it when the checkpoint became durable.
// 2. The fsync contract below the server: every write followed by a flush of its file must have
//    reached the disk (journaled by the helper) before that flush returned. A write that did not
//    was lost between the system call and the disk: page cache, filesystem, loop device, FUSE or
//    the helper.
// 3. For a cycle whose write-order check fired: the server's write of each violating version, the
//    flushes around it, and when the disk saw it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [cycleArg, traceArg] = process.argv.slice(2);
if (!cycleArg) {
  console.error('usage: trace-write-order.mjs CYCLE_DIR [TRACE_DIR (default /tmp/mariadbd-traces)]');
  process.exit(2);
}
const cycleDir = resolve(cycleArg);
const traceDir = traceArg ?? process.env.TRACE_DIR ?? '/tmp/mariadbd-traces';
const record = JSON.parse(readFileSync(join(cycleDir, 'cycle.json'), 'utf8'));
const order = record.writeOrder ?? { violationCount: 0, violations: [], checkpointLsn: null };
const pageSize = record.settings.server.pageSize;
const extentPages = pageSize <= 16384 ? 1048576 / pageSize : 64;
/**
 * strace's times are its own (taken at its stops, not inside the kernel): a write and a flush
 * closer than this are in no known order. Each answer takes them the way that blames no one: a
 * flush begun within the margin after a write counts as covering it for the server's order, and
 * as not following it for the fsync contract.
 */
const MARGIN_US = Number(process.env.TRACE_MARGIN_US ?? 1000);

const norm = (file) => file.replace(/^\.\//, '');
const base = (file) => file.split('/').pop();
const ms = (us) => `${(us / 1000).toFixed(2)} ms`;
const lsnAt = (buf, at) => (buf && buf.length >= at + 8 ? Number(buf.readBigUInt64BE(at)) : null);
const isFlush = (c) => c.name === 'fsync' || c.name === 'fdatasync';
const isCheckpoint = (c) => c.name === 'pwrite64' && base(c.file) === 'ib_logfile0' && (c.offset === 4096 || c.offset === 8192);
/** ibdata1's doublewrite blocks, pages [extent, 3 x extent): copies, not live pages. */
const inDoublewriteArea = (file, page) => base(file) === 'ibdata1' && page >= extentPages && page < 3 * extentPages;

/** The load server's trace: the one whose datadir is on the cycle's cut disk. */
function findTrace() {
  const want = `--datadir=${join(cycleDir, 'cut')}/`;
  for (const name of existsSync(traceDir) ? readdirSync(traceDir) : []) {
    if (name.endsWith('.trace.args') && readFileSync(join(traceDir, name), 'utf8').includes(want)) return join(traceDir, name.replace(/\.args$/, ''));
  }
  return null;
}

const usOf = (t) => {
  const [s, frac = ''] = t.split('.');
  return Number(s) * 1e6 + Number(frac.padEnd(6, '0').slice(0, 6));
};
const unhex = (s) => Buffer.from(s.replace(/\\x/g, ''), 'hex');

/** The trace's calls in start order, each with start and end in µs, file names from openat. */
function parseTrace(path) {
  const calls = [];
  const open = new Map(); // pid -> its unfinished call
  const names = new Map(); // fd -> path (threads share the table)
  // end: strace's -T duration can undercount; when the exit was printed on its own line, its
  // timestamp (taken after the call returned) bounds the end from above
  const done = (pid, name, args, start, ret, dur, exitSeen = 0) => {
    const call = { pid, name, start, end: Math.max(start + Math.round(Number(dur) * 1e6), exitSeen), ret: Number(ret) };
    if (name === 'openat') {
      const m = /^[^,]+, "((?:\\x[0-9a-f]{2})*)"/.exec(args);
      if (m && call.ret >= 0) names.set(call.ret, unhex(m[1]).toString('latin1'));
      return;
    }
    call.fd = Number(/^(\d+)/.exec(args)?.[1] ?? -1);
    call.file = names.get(call.fd) ?? `fd ${call.fd}`;
    const m = /^\d+, "((?:\\x[0-9a-f]{2})*)"(?:\.\.\.)?, (\d+), (\d+)/.exec(args);
    if (name === 'pwrite64' && m) Object.assign(call, { head: unhex(m[1]), length: Number(m[2]), offset: Number(m[3]) });
    calls.push(call);
  };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    let m = /^(\d+)\s+(\d+\.\d+) (\w+)\((.*) <unfinished \.\.\.>$/.exec(line);
    if (m) {
      open.set(m[1], { name: m[3], args: m[4], start: usOf(m[2]) });
      continue;
    }
    m = /^(\d+)\s+(\d+\.\d+) <\.\.\. (\w+) resumed>.*\) += (-?\d+).*<([\d.]+)>$/.exec(line);
    if (m) {
      const u = open.get(m[1]);
      open.delete(m[1]);
      if (u && u.name === m[3]) done(m[1], u.name, u.args, u.start, m[4], m[5], usOf(m[2]));
      continue;
    }
    m = /^(\d+)\s+(\d+\.\d+) (\w+)\((.*)\) += (-?\d+).*<([\d.]+)>$/.exec(line);
    if (m) done(m[1], m[3], m[4], usOf(m[2]), m[5], m[6]);
  }
  return calls.sort((a, b) => a.start - b.start);
}

/** The disk's order log (faults/order-log.ts): writes and flushes in time order, writes by seq. */
function readOrderLog(path) {
  if (!existsSync(path)) return null;
  const data = readFileSync(path);
  const writes = [];
  const flushes = [];
  for (let i = 0, at = 12, count = Number(data.readBigUInt64LE(4)); i < count; i++, at += 32) {
    const kind = data.readUInt32LE(at);
    const a = Number(data.readBigUInt64LE(at + 8));
    const b = Number(data.readBigUInt64LE(at + 16));
    const tUs = Number(data.readBigUInt64LE(at + 24) / 1000n);
    if (kind === 1) writes.push({ seq: a, offset: b, length: data.readUInt32LE(at + 4), tUs });
    if (kind === 2) flushes.push({ boundary: a, number: b, tUs });
  }
  return { writes, flushes, bySeq: new Map(writes.map((w) => [w.seq, w])) };
}

function readExtents(path) {
  return existsSync(path) ? new Map(JSON.parse(readFileSync(path, 'utf8')).map((f) => [norm(f.rel), f.extents])) : null;
}

/** Device byte ranges of [offset, offset + length) of a file, from its extents. */
function deviceRanges(extents, offset, length) {
  const out = [];
  for (const e of extents ?? []) {
    const lo = Math.max(offset, e.logical);
    const hi = Math.min(offset + length, e.logical + e.length);
    if (lo < hi) out.push([e.physical + (lo - e.logical), hi - lo]);
  }
  return out;
}

/** Index of the first item of a list ordered by key(item) whose key is at or after t. */
function firstAtOrAfter(list, t, key) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(list[mid]) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Calls by file, each list in start order. */
function byFile(list) {
  const out = new Map();
  for (const c of list) out.set(c.file, [...(out.get(c.file) ?? []), c]);
  return out;
}

/** Whether the union of the disk writes covers [at, at + n). */
function coveredBy(at, n, writes) {
  const spans = writes.filter((d) => d.offset < at + n && at < d.offset + d.length).map((d) => [d.offset, d.offset + d.length]).sort((a, b) => a[0] - b[0]);
  let reach = at;
  for (const [lo, hi] of spans) {
    if (lo > reach) return false;
    reach = Math.max(reach, hi);
  }
  return reach >= at + n;
}

/** When the disk had received all of a call's range, from `from` on; null if not within its log. */
function receivedAt(disk, extents, call, from) {
  const need = deviceRanges(extents?.get(norm(call.file)), call.offset, call.length);
  if (!disk || !need.length) return undefined;
  const seen = [];
  for (let i = firstAtOrAfter(disk.writes, from, (w) => w.tUs); i < disk.writes.length; i++) {
    seen.push(disk.writes[i]);
    if (need.every(([at, n]) => coveredBy(at, n, seen))) return disk.writes[i].tUs;
  }
  return null;
}

function serverOrder(calls, disk, extents) {
  const flushesOf = byFile(calls.filter(isFlush));
  const pageWrites = calls
    .filter((c) => c.name === 'pwrite64' && c.length === pageSize && c.ret === pageSize && /\.ibd$|ibdata\d+$|undo\d+$/.test(c.file))
    .map((c) => ({ ...c, page: c.offset / pageSize, lsn: lsnAt(c.head, 16) }))
    .filter((c) => c.lsn > 0 && !inDoublewriteArea(c.file, c.page));
  const coveredBefore = (w, t) => {
    const list = flushesOf.get(w.file) ?? [];
    const f = list[firstAtOrAfter(list, w.end - MARGIN_US, (x) => x.start)];
    return f !== undefined && f.end <= t;
  };
  const checkpoints = calls.filter(isCheckpoint);
  let lastLsn = 0;
  let distinct = 0;
  const bad = [];
  for (const ck of checkpoints) {
    const C = lsnAt(ck.head, 0);
    if (C === null || C <= lastLsn) continue; // the other block, or the same checkpoint again
    lastLsn = C;
    distinct++;
    const byPage = new Map();
    for (const w of pageWrites) {
      if (w.end > ck.start) break;
      const key = `${w.file}#${w.page}`;
      byPage.set(key, [...(byPage.get(key) ?? []), w]);
    }
    const durableAt = disk?.flushes[firstAtOrAfter(disk.flushes, ck.end, (f) => f.tUs)]?.tUs ?? null;
    const uncovered = [];
    for (const versions of byPage.values()) {
      const durable = versions.filter((w) => coveredBefore(w, ck.start)).at(-1);
      const late = versions.filter((w) => !coveredBefore(w, ck.start) && w.lsn < C && w.lsn > (durable?.lsn ?? 0)).at(-1);
      if (!late) continue;
      const running = (flushesOf.get(late.file) ?? []).filter((f) => f.start < late.end - MARGIN_US && f.end > late.end);
      const arrived = durableAt === null ? undefined : receivedAt(disk, extents, late, late.start);
      uncovered.push({ w: late, running, arrived, durableAt });
    }
    if (uncovered.length) bad.push({ ck, C, uncovered });
  }
  const versions = bad.reduce((n, b) => n + b.uncovered.length, 0);
  const notAtDisk = bad.reduce((n, b) => n + b.uncovered.filter((u) => u.arrived === null || (u.arrived !== undefined && u.arrived > u.durableAt)).length, 0);
  const whileFlushing = bad.reduce((n, b) => n + b.uncovered.filter((u) => u.running.length).length, 0);
  console.log(`server order: ${distinct} checkpoints written; ${bad.length} of them covered page versions below their LSN that no flush of the page's file covered (${versions} versions, ${whileFlushing} of them returned while a flush of their file was running); the disk had not received ${notAtDisk} of them when the checkpoint became durable`);
  for (const { ck, C, uncovered } of bad.slice(0, 4)) {
    console.log(`  checkpoint LSN ${C} (thread ${ck.pid}) at 0 ms, durable at the disk ${uncovered[0].durableAt === null ? '?' : ms(uncovered[0].durableAt - ck.start)}:`);
    for (const { w, running, arrived } of uncovered.slice(0, 3)) {
      const during = running.length ? `returned while ${running.map((f) => `${f.name} ${ms(f.start - ck.start)}..${ms(f.end - ck.start)}`).join(', ')} ran; none began after it` : 'no flush of its file began after it';
      const disk = arrived === undefined ? '' : arrived === null ? '; the disk had not received it by the end of its log' : `; the disk received it at ${ms(arrived - ck.start)}`;
      console.log(`    ${norm(w.file)} page ${w.page} LSN ${w.lsn}: pwrite64 ${ms(w.start - ck.start)}..${ms(w.end - ck.start)} (thread ${w.pid}), ${during}${disk}`);
    }
  }
}

function deviceContract(calls, disk, extents) {
  if (!disk || !extents) {
    console.log(`fsync contract at the disk: not checked (${!extents ? 'no recover/extents.json' : 'no cut/order.bin'})`);
    return;
  }
  const since = disk.writes[0]?.tUs ?? Infinity;
  const until = disk.writes.at(-1)?.tUs ?? 0;
  const flushesOf = byFile(calls.filter(isFlush));
  let checked = 0;
  let withinMargin = 0;
  const lost = [];
  for (const w of calls) {
    if (w.name !== 'pwrite64' || w.ret !== w.length || !w.length || !extents.has(norm(w.file)) || w.start < since) continue;
    const list = flushesOf.get(w.file) ?? [];
    const f = list[firstAtOrAfter(list, w.end + MARGIN_US, (x) => x.start)];
    if (!f || f.end > until) continue;
    checked++;
    const at = receivedAt(disk, extents, w, w.start);
    if (at !== null && at !== undefined && at > f.end && at <= f.end + MARGIN_US) withinMargin++;
    else if (at === null || at === undefined || at > f.end) lost.push({ w, f, at });
  }
  console.log(`fsync contract at the disk: ${checked} data-file writes followed (by at least ${MARGIN_US} µs) by a flush of their file; ${checked - lost.length - withinMargin} reached the disk before that flush returned, ${withinMargin} within ${MARGIN_US} µs after it (strace's timing error), ${lost.length} later or never`);
  for (const { w, f, at } of lost.slice(0, 5)) {
    console.log(`  ${norm(w.file)} @${w.offset} (${w.length} B) returned at ${w.end} µs; ${f.name} ${f.start}..${f.end} µs; the disk received it ${at ? `at ${at} µs` : 'never within its log'}`);
  }
}

function cutViolations(calls, disk) {
  const ck = calls.find((c) => isCheckpoint(c) && lsnAt(c.head, 0) === order.checkpointLsn);
  const rel = (us) => (ck ? ms(us - ck.start) : `${us} µs`);
  console.log(`at the cut: ${order.violationCount} pages with a pending version older than the durable checkpoint LSN ${order.checkpointLsn}`);
  if (!ck) console.log(`  the checkpoint write (LSN ${order.checkpointLsn}) is not in the trace`);
  const flushesOf = byFile(calls.filter(isFlush));
  for (const v of order.violations) {
    const w = calls.filter((c) => c.name === 'pwrite64' && norm(c.file) === norm(v.file) && c.offset === v.page * pageSize && lsnAt(c.head, 16) === v.pendingLsn).at(-1);
    const head = `  ${v.file} page ${v.page}: pending LSN ${v.pendingLsn} over durable ${v.durableLsn} (write seq ${v.seq}, ${v.length} B)`;
    if (!w || !ck) {
      console.log(`${head}: the server's write of this version is not in the trace`);
      continue;
    }
    const flushes = flushesOf.get(w.file) ?? [];
    const after = flushes.filter((f) => f.start >= w.end && f.end <= ck.start);
    const running = flushes.filter((f) => f.start < w.end && f.end > w.end);
    const arrived = disk?.bySeq.get(v.seq);
    console.log(`${head}\n    server: pwrite64 ${rel(w.start)}..${rel(w.end)} (thread ${w.pid}); flushes of its file running when it returned: ${running.map((f) => `${rel(f.start)}..${rel(f.end)}`).join(', ') || 'none'}; begun after it and ended before the checkpoint: ${after.map((f) => `${rel(f.start)}..${rel(f.end)}`).join(', ') || 'none'}`);
    console.log(`    disk: the pending write arrived ${arrived ? rel(arrived.tUs) : 'before the order log'}`);
    console.log(`    => ${after.length ? 'NOT THE SERVER: a flush of the file began after the write returned and ended before the checkpoint' : 'SERVER: no flush of the file began after this write returned and before the checkpoint write'}`);
  }
}

const tracePath = findTrace();
if (!tracePath) {
  console.log(`${record.id}: no trace of its load server in ${traceDir}`);
  process.exit(1);
}
const calls = parseTrace(tracePath);
const disk = readOrderLog(join(cycleDir, 'cut', 'order.bin'));
const extents = readExtents(join(cycleDir, 'recover', 'extents.json'));
console.log(`${record.id} (page size ${pageSize}, flush method ${record.settings.server.flushMethod}): trace ${tracePath}`);
serverOrder(calls, disk, extents);
deviceContract(calls, disk, extents);
if (order.violationCount) cutViolations(calls, disk);
else console.log('at the cut: the disk saw no write-order violation');
