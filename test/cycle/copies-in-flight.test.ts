/** Doublewrite copies pending writes carried or overwrote at the cut (rig/cycle/copies-in-flight.ts), on synthetic journals. */
import t from 'tap';
import type { CrashPlan } from '../../faults/crash-plan.js';
import type { JournalEntry } from '../../faults/journal.js';
import { findCopiesInFlight, findCopiesOverwritten, inFlightKey } from '../../rig/cycle/copies-in-flight.js';
import type { PageTruth } from '../../rig/cycle/page-truth.js';

const PS = 4096;

function image(space: number, page: number, lsn: number): Buffer {
  const b = Buffer.alloc(PS, 0x5a);
  b.writeUInt32BE(page, 4);
  b.writeBigUInt64BE(BigInt(lsn), 16);
  b.writeUInt32BE(space, 34);
  return b;
}

const entry = (seq: number, ...pages: Buffer[]): JournalEntry => {
  const data = Buffer.concat(pages);
  return { seq, offset: seq * 1 << 20, length: data.length, old: Buffer.alloc(data.length), new: data };
};

const plan = (fates: Record<number, 'landed' | 'dropped' | 'torn'>): CrashPlan => ({
  version: 1, seed: 1, atomicUnit: 512, policy: { land: 0.3, drop: 0.3, tear: 0.4 },
  writes: Object.entries(fates).map(([seq, fate]) => ({ seq: Number(seq), offset: 0, length: PS, units: 8, fate, unitsLanded: [] })),
});

const truth = (page: number, newestLsn: number, writeSeqs: number[]): PageTruth => ({
  file: './db/t.ibd', page, class: 'torn', writeSeqs, unitsNew: [true, false], durableLsn: 1, newestLsn,
});

t.test('a batch write carrying the newest version before the home write: in flight, before it', async (t) => {
  const journal = [entry(5, image(9, 3, 700), image(9, 0, 800), image(2, 0, 800)), entry(6, image(9, 0, 800))];
  const found = findCopiesInFlight(journal, plan({ 5: 'torn', 6: 'torn' }), [{ truth: truth(0, 800, [6]), space: 9 }]);
  t.same(found.get(inFlightKey(9, 0)), [{ seq: 5, fate: 'torn', beforeHomeWrite: true }]);
  t.equal(found.size, 1, 'page 3 was not torn, space 2 page 0 is another page');
});

t.test('a copy after the home write, an older version, or the home write itself is not a copy in flight before it', async (t) => {
  const journal = [entry(4, image(9, 0, 799)), entry(6, image(9, 0, 800)), entry(7, image(9, 0, 800))];
  const found = findCopiesInFlight(journal, plan({ 4: 'landed', 6: 'dropped', 7: 'landed' }), [{ truth: truth(0, 800, [6]), space: 9 }]);
  t.same(found.get(inFlightKey(9, 0)), [{ seq: 7, fate: 'landed', beforeHomeWrite: false }]);
});

t.test('pages of an unknown space or without an LSN are skipped; nothing torn finds nothing', async (t) => {
  const journal = [entry(5, image(9, 0, 800))];
  t.equal(findCopiesInFlight(journal, plan({ 5: 'torn' }), [{ truth: truth(0, 800, [6]), space: null }]).size, 0);
  t.equal(findCopiesInFlight(journal, plan({ 5: 'torn' }), [{ truth: { ...truth(0, 800, [6]), newestLsn: null }, space: 9 }]).size, 0);
  t.equal(findCopiesInFlight(journal, plan({}), []).size, 0);
});

t.test('a batch the block layer split mid-page: the images of the second request are found half a page off its start', async (t) => {
  // copies of pages 0-3 in one 4-page batch, split after 1.5 pages into two requests
  const batch = Buffer.concat([image(9, 0, 800), image(9, 1, 801), image(9, 2, 802), image(9, 3, 803)]);
  const split = PS + PS / 2;
  const first: JournalEntry = { seq: 5, offset: 1 << 20, length: split, old: Buffer.alloc(split), new: batch.subarray(0, split) };
  const second: JournalEntry = { seq: 6, offset: (1 << 20) + split, length: batch.length - split, old: Buffer.alloc(batch.length - split), new: batch.subarray(split) };
  const homes = [1, 2, 3].map((page) => entry(10 + page, image(9, page, 800 + page)));
  const torn = [1, 2, 3].map((page) => ({ truth: truth(page, 800 + page, [10 + page]), space: 9 }));
  const found = findCopiesInFlight([first, second, ...homes], plan({ 5: 'landed', 6: 'dropped', 11: 'torn', 12: 'torn', 13: 'torn' }), torn);
  t.same(found.get(inFlightKey(9, 1)), [{ seq: 5, fate: 'landed', beforeHomeWrite: true }], 'the image cut by the split counts with the request holding its header');
  t.same(found.get(inFlightKey(9, 2)), [{ seq: 6, fate: 'dropped', beforeHomeWrite: true }], 'half a page into the second request');
  t.same(found.get(inFlightKey(9, 3)), [{ seq: 6, fate: 'dropped', beforeHomeWrite: true }]);
});

t.test('a later batch overwriting a copy after the home write: the slot was reused before the home write was flushed', async (t) => {
  // as in a volatile-cache refusal (odnf-volatile-counted, O_DIRECT_NO_FSYNC): home write 5384 of
  // ibdata1 page 279 at LSN 14578015 came right after a flush; batch 5391 then wrote the
  // doublewrite area, its second slot over the durable copy of that version
  const batch: JournalEntry = { ...entry(5391, image(0, 63, 900), image(0, 192, 901)), old: Buffer.concat([image(0, 278, 850), image(0, 279, 14578015)]) };
  const home: JournalEntry = { ...entry(5384, image(0, 279, 14578015)), old: image(0, 279, 13388034) };
  const torn = [{ truth: truth(279, 14578015, [5384]), space: 0 }];
  const found = findCopiesOverwritten([home, batch], plan({ 5384: 'torn', 5391: 'torn' }), torn);
  t.same(found.get(inFlightKey(0, 279)), [{ seq: 5391, fate: 'torn', afterHomeWrite: true }]);
  t.equal(findCopiesInFlight([home, batch], plan({ 5384: 'torn', 5391: 'torn' }), torn).size, 0, 'no copy of it was in flight');
  const earlier = { ...batch, seq: 5380 };
  t.same(findCopiesOverwritten([earlier, home], plan({ 5380: 'landed', 5384: 'torn' }), torn).get(inFlightKey(0, 279)), [{ seq: 5380, fate: 'landed', afterHomeWrite: false }],
    'overwritten before the home write: not a reused slot');
  t.equal(findCopiesOverwritten([home, { ...batch, old: Buffer.concat([image(0, 278, 850), image(0, 279, 14570000)]) }], plan({}), torn).size, 0,
    'an older version of the page overwritten: not the copy of its newest');
});
