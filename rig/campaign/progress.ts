/**
 * What a campaign shows while it runs. On a terminal (stderr): one progress bar with the time
 * left, the scenario, cycle, phase and verdict counts so far, in that order (a narrow terminal
 * clips the end), and a line per finished cycle above it. Elsewhere (CI
 * logs, pipes): only the line per finished cycle, e.g.
 * `[3/9] quick-dw-on-4k-2: restored (12 torn pages) 17.2 s`, and a line when an exploration's
 * recording is made (what it holds, how many states are judged at once). Warnings go to stderr.
 */
import cliProgress from 'cli-progress';
import type { CycleRecord, Phase, Verdict } from '../results/types.js';
import { FINDINGS, knownFinding } from '../findings/catalog.js';
import { isFailing } from './evidence.js';
import type { PlannedCycle } from './types.js';

export interface CampaignProgress {
  cycleStarted(n: number, cycle: PlannedCycle): void; // n: 1-based among the cycles planned
  phase(phase: Phase): void;
  cycleFinished(n: number, record: CycleRecord, seconds: number): void;
  note(line: string): void; // a line of what a long cycle is doing (stdout, or above the bar)
  warn(line: string): void;
  stop(): void;
}

export function cycleLine(n: number, total: number, record: CycleRecord, seconds: number): string {
  const torn = record.tornPagesBefore.length;
  const detail = record.verdict === 'rig-error' ? record.error ?? record.reason : `${torn} torn page${torn === 1 ? '' : 's'}`;
  const known = isFailing(record) ? knownFinding((record.settings.findings ?? []).map((id) => FINDINGS[id]), record) : null;
  const held = known ? `; known finding ${known.id}` : isFailing(record) ? `; contradicts ${record.expectation}` : '';
  return `[${n}/${total}] ${record.id}: ${record.verdict} (${detail}${held}) ${seconds.toFixed(1)} s`;
}

/** `total` cycles planned; `finished`: those an earlier, resumed run recorded; `terminal`: where
 * the bar goes (stderr; a test gives its own). */
export function createProgress(total: number, finished: CycleRecord[], tty: boolean, terminal: NodeJS.WritableStream = process.stderr): CampaignProgress {
  return tty ? barProgress(total, finished, terminal) : plainProgress(total);
}

function plainProgress(total: number): CampaignProgress {
  return {
    cycleStarted: () => undefined,
    phase: () => undefined,
    cycleFinished: (n, record, seconds) => process.stdout.write(`${cycleLine(n, total, record, seconds)}\n`),
    note: (line) => process.stdout.write(`${line}\n`),
    warn: (line) => process.stderr.write(`${line}\n`),
    stop: () => undefined,
  };
}

function barProgress(total: number, finished: CycleRecord[], terminal: NodeJS.WritableStream): CampaignProgress {
  const multi = new cliProgress.MultiBar(
    {
      // {remaining}, not {eta}: the bar's own eta (seconds, from its last few ticks) would win
      format: '{bar} {value}/{total} | ETA {remaining} | {scenario} cycle {cycle} | {phase} | {counts}',
      barsize: 20,
      stream: terminal,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const counts = new Map<Verdict, number>();
  for (const r of finished) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const countText = () => [...counts].map(([v, c]) => `${v} ${c}`).join(', ') || 'no verdicts yet';
  const started = Date.now();
  let finishedHere = 0;
  // cycles take tens of seconds each: the mean so far says more than a rate over the last few ticks
  const eta = (n: number) => formatSeconds(((Date.now() - started) / finishedHere / 1000) * (total - n));
  const bar = multi.create(total, finished.length, { scenario: '', cycle: '', phase: 'starting', counts: countText(), remaining: 'after the first cycle' });
  return {
    cycleStarted: (_n, cycle) => bar.update({ scenario: cycle.scenario, cycle: cycle.cycle, phase: 'starting' }),
    phase: (phase) => bar.update({ phase }),
    cycleFinished: (n, record, seconds) => {
      counts.set(record.verdict, (counts.get(record.verdict) ?? 0) + 1);
      multi.log(`${cycleLine(n, total, record, seconds)}\n`);
      finishedHere += 1;
      bar.update(n, { phase: 'done', counts: countText(), remaining: eta(n) });
    },
    note: (line) => multi.log(`${line}\n`),
    warn: (line) => multi.log(`${line}\n`),
    stop: () => multi.stop(),
  };
}

function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}
