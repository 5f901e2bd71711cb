/** The torn-page table's doublewrite column (reports/sections/cycle/torn-pages.ts): how each lost copy is named. */
import t from 'tap';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import type { TornPage } from '../../rig/results/types.js';
import { tornPagesBlock } from '../../reports/sections/cycle/torn-pages.js';
import { cycleRecord, tornPage } from '../fixtures/cycle-record.js';

const settings = { name: 's', runtime: 'local' as const, server: { ...DEFAULT_SERVER, doublewrite: true }, disk: DEFAULT_DISK, load: DEFAULT_LOAD, expect: 'recovers' as const };
const shown = (p: TornPage): string => String(tornPagesBlock({ ...cycleRecord({ id: 's-1', scenario: 's', cycle: 1, seed: 1 }, settings, 'detected', 0), tornPagesBefore: [p] }));
const lost = tornPage(95);
const hidden = { source: './ibdata1', slot: 114, lsn: 12240902, valid: true, accepted: true, why: 'valid' };

t.test('a copy in an unwritten extent that would have restored the page', async (t) => {
  const page = { ...lost, doublewrite: { ...lost.doublewrite, unwritten: { copies: [hidden], wouldRestore: true } } };
  t.match(shown(page), /copy reads as zeros/);
  t.match(shown(page), /\.\/ibdata1 page 114, LSN 12240902: on the device, in an extent the filesystem still marks unwritten/);
  t.notMatch(shown({ ...page, doublewrite: { ...page.doublewrite, unwritten: { copies: [hidden], wouldRestore: false } } }), /copy reads as zeros/, 'it would not have helped');
  t.notMatch(shown(lost), /copy reads as zeros/);
});

t.test('a copy overwritten after the home write, and one overwritten before it', async (t) => {
  const page = (afterHomeWrite: boolean): TornPage => ({ ...lost, doublewrite: { ...lost.doublewrite, overwritten: [{ seq: 5391, fate: 'torn', afterHomeWrite }] } });
  t.match(shown(page(true)), /copy overwritten before the home write was flushed/);
  t.match(shown(page(true)), /write 5391 \(torn\) overwrote the copy/);
  t.notMatch(shown(page(false)), /copy overwritten/);
});
