/**
 * What a campaign shows on a terminal: the bar, drawn into a stream that says it is an 80-column
 * TTY, as cli-progress draws it into a real one (cursor moves, line clears, the line cut at the
 * terminal's width). Elsewhere: one plain line per finished cycle on stdout.
 */
import { Writable } from 'node:stream';
import t from 'tap';
import { createProgress, cycleLine } from '../../rig/campaign/progress.js';
import type { PlannedCycle } from '../../rig/campaign/types.js';
import type { CycleRecord } from '../../rig/results/types.js';

/** A terminal of `columns`: what was written to it, and each line it showed, escapes removed. */
function terminal(columns: number) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY: true, columns, rows: 24 },
  );
  // what each redraw left: the text after the last cursor move to column 1, escapes gone
  const shown = () => chunks.join('').split(/\x1b\[1G|\r|\n/).map((l) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')).filter((l) => l.trim() !== '');
  return { stream, shown };
}

const planned = (cycle: number): PlannedCycle => ({ id: `quick-dw-on-${cycle}`, scenario: 'quick-dw-on', cycle, seed: 7 }) as PlannedCycle;
const record = (cycle: number): CycleRecord =>
  ({ id: `quick-dw-on-${cycle}`, verdict: 'restored', tornPagesBefore: [{}, {}], settings: {}, expectation: 'recovers', expectationHeld: true }) as unknown as CycleRecord;
const tick = () => new Promise((r) => setTimeout(r, 120)); // past the bar's redraw throttle

t.test('the bar shows the time left by the mean cycle so far, before anything a narrow terminal cuts', async (t) => {
  const { stream, shown } = terminal(80);
  const made = [Date.now()];
  const progress = createProgress(4, [], true, stream);
  made.push(Date.now());
  progress.cycleStarted(1, planned(1));
  progress.phase('load');
  await tick();
  t.match(shown().at(-1), /^\S{20} 0\/4 \| ETA after the first cycle \| quick-dw-on cycle 1 \| load/, 'before any cycle ended');
  await new Promise((r) => setTimeout(r, 1000));
  const ended = [Date.now()];
  progress.cycleFinished(1, record(1), 1.1);
  ended.push(Date.now());
  progress.cycleStarted(2, planned(2));
  await tick();
  progress.stop();
  const lines = shown();
  t.ok(lines.includes(cycleLine(1, 4, record(1), 1.1)), 'the finished cycle has its line above the bar');
  const last = lines.at(-1)!;
  t.ok(last.length <= 80, `the bar fits the terminal: ${last}`);
  const bar = last.match(/^\S{20} 1\/4 \| ETA (\d+) s \| quick-dw-on cycle 2 \| starting \| restored 1$/);
  t.ok(bar, `the bar after the first cycle: ${last}`);
  // one cycle took what passed since the bar was made, and three are left
  const [least, most] = [Math.round((3 * (ended[0]! - made[1]!)) / 1000), Math.round((3 * (ended[1]! - made[0]!)) / 1000)];
  t.ok(Number(bar?.[1]) >= least && Number(bar?.[1]) <= most, `ETA ${bar?.[1]} s, within ${least}-${most} s: three cycles left at the first one's pace`);
});

t.test('off a terminal: a plain line per finished cycle on stdout, no bar', async (t) => {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const { stream, shown } = terminal(80);
  process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write;
  try {
    const progress = createProgress(2, [], false, stream);
    progress.cycleStarted(1, planned(1));
    progress.cycleFinished(1, record(1), 2.5);
    progress.stop();
  } finally {
    process.stdout.write = write;
  }
  t.same(written, ['[1/2] quick-dw-on-1: restored (2 torn pages) 2.5 s\n']);
  t.same(shown(), [], 'nothing drawn');
});
