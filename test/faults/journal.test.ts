/**
 * The journal format the helper dumps (faults/journal.ts): written here, parsed back whole, and
 * an input that is not a whole journal is a rig failure that says what is wrong with it.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadJournal, parseJournal, type JournalEntry } from '../../faults/journal.js';
import { createRng } from '../../faults/prng.js';
import { journalBytes } from '../fixtures/journal-bytes.js';
import { DiskError } from '../../faults/disk-error.js';

function randomEntries(seed: number, count: number): JournalEntry[] {
  const rng = createRng(seed);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => rng.int(256)));
  return Array.from({ length: count }, (_, i) => {
    const length = [0, 1, 512, 4096, 16384][rng.int(5)]!;
    return { seq: 1000 + i * (1 + rng.int(3)), offset: rng.int(2 ** 40), length, old: bytes(length), new: bytes(length) };
  });
}

/** Fields and bytes, not Buffer identity: parsed entries are views into the parsed buffer. */
function plain(entries: JournalEntry[]): object[] {
  return entries.map((e) => ({ ...e, old: e.old.toString('hex'), new: e.new.toString('hex') }));
}

t.test('written then parsed gives the same entries', async (t) => {
  for (const [seed, count] of [[1, 0], [2, 1], [3, 7], [4, 40]] as const) {
    const entries = randomEntries(seed, count);
    const data = journalBytes(entries);
    t.equal(data.length, 12 + entries.reduce((n, e) => n + 24 + 2 * e.length, 0), `${count} entries: header, then 24 bytes + old + new each`);
    t.same(plain(parseJournal(data)), plain(entries), `seed ${seed}: ${count} entries round-trip`);
  }
  t.same(parseJournal(journalBytes([{ seq: 2 ** 52, offset: 2 ** 50, length: 0, old: Buffer.alloc(0), new: Buffer.alloc(0) }]))[0]!.offset, 2 ** 50, 'offsets past 2^32 survive');
});

const whole = journalBytes(randomEntries(5, 3)); // lengths: see the cases below
const firstLength = Number(whole.readBigUInt64LE(12 + 16));
const bad: { name: string; data: Buffer; says: RegExp }[] = [
  { name: 'empty', data: Buffer.alloc(0), says: /^j is not a power-fail disk journal \(no PFJ1 header\)$/ },
  { name: 'header cut short', data: whole.subarray(0, 11), says: /no PFJ1 header/ },
  { name: 'another magic', data: Buffer.concat([Buffer.from('PFJ2'), whole.subarray(4)]), says: /no PFJ1 header/ },
  { name: 'a whole disk image instead', data: Buffer.alloc(4096), says: /no PFJ1 header/ },
  { name: 'cut in the first entry header', data: whole.subarray(0, 12 + 10), says: /^j is truncated at write 0 of 3$/ },
  { name: 'cut in the first entry bytes', data: whole.subarray(0, 12 + 24 + 2 * firstLength - 1), says: /^j is truncated in write 0 of 3$/ },
  { name: 'cut before the last entry', data: whole.subarray(0, whole.length - 1), says: /^j is truncated (at|in) write 2 of 3$/ },
  { name: 'bytes after the last entry', data: Buffer.concat([whole, Buffer.alloc(5)]), says: /^j has 5 bytes after its last write \(3 written\)$/ },
  { name: 'count larger than what follows', data: Buffer.concat([Buffer.from('PFJ1'), Buffer.from([9, 0, 0, 0, 0, 0, 0, 0])]), says: /^j is truncated at write 0 of 9$/ },
];

for (const c of bad) {
  t.test(`bad journal: ${c.name}`, async (t) => {
    const error = (() => {
      try {
        parseJournal(c.data, 'j');
        return null;
      } catch (e) {
        return e;
      }
    })();
    t.ok(error instanceof DiskError && error.code === 'rig-failure', 'a rig failure');
    t.match((error as Error).message, c.says);
  });
}

t.test('loadJournal names the file, and says why one may be missing', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'journal.bin');
  t.throws(() => loadJournal(path), { code: 'rig-failure', message: /journal\.bin does not exist: the disk was not cut, or its journal dump at the cut failed/ });
  writeFileSync(path, whole.subarray(0, 20));
  t.throws(() => loadJournal(path), { code: 'rig-failure', message: `${path} is truncated at write 0 of 3` });
  writeFileSync(path, whole);
  t.equal(loadJournal(path).length, 3);
});
