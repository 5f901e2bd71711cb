/**
 * The verdict of one cycle, from the rig's ground truth (which pages tore) joined with what the
 * server did and what the checks found. Log lines are evidence, never the verdict: MariaDB can
 * restore pages from doublewrite without a word, and can blame intact pages after one torn page.
 *
 * What the server did after it started is the server's: a crash, a hang or a failed shutdown is a
 * finding, named apart. First match wins:
 * - never answered: `hung` (its start passed the bound), `crashed` (a signal ended it: a crash,
 *   an assertion's abort, a kill the rig did not send), else it exited by itself:
 *   `wal-tail-refused` when RocksDB refused on its write-ahead log, a log write was dropped or
 *   torn at the cut and nothing else was called corrupt (a torn tail under RocksDB's default
 *   recovery mode: a fail-stop, not corruption); `detected` when pages were torn or it logged
 *   corruption (a complaint about the log with every log write landed counts as corruption);
 *   `refused` when neither (nothing explains the refusal);
 * - answered: `lost-commit` (an acknowledged commit is missing, or an acknowledged lifecycle step
 *   such as a CREATE, TRUNCATE or DROP was undone), then corruption: a torn or other
 *   page still invalid after a clean shutdown, a CHECK TABLE complaint, a ledger the server could
 *   not read: `reported-corruption` when its log named corruption, else `silent-corruption`;
 *   then the process: `hung` (the checks passed their bound), `crashed` (it died during the
 *   checks), `shutdown-crash` (SHUTDOWN did not end with exit code 0);
 * - else `restored` (pages tore, all in use valid afterwards) or `no-torn`.
 * Pages are scanned after every run, but only a clean shutdown leaves them as the server meant
 * them: after a crash, pages rebuilt in memory may not have reached the disk yet.
 * A write-ahead order violation the device saw (rig/cycle/write-order.ts) changes no verdict: the
 * reason names it, since it explains why a checkpoint could not be trusted.
 */
import type { CycleRecord, RecoveryRun, StallSeen, Verdict, WriteOrderCheck } from '../results/types.js';

export interface JudgeInput {
  torn: CycleRecord['tornPagesBefore'];
  run: RecoveryRun;
  loggedCorruption: boolean;
  /**
   * Engine rocksdb: whether the server's log said RocksDB would not open on its write-ahead log
   * (`logged`), and whether the disk's record has a log write dropped or torn at the cut (`lost`).
   */
  wal?: { logged: boolean; lost: boolean };
  ledger: CycleRecord['ledger'];
  checkTable: CycleRecord['checkTable'];
  invariants: CycleRecord['invariants'];
  pagesAfter: CycleRecord['pagesAfter'];
  /** The write-ahead order at the device: named in the reason when violated, never a verdict. */
  writeOrder?: WriteOrderCheck | null;
}

export interface Judgement {
  verdict: Verdict;
  reason: string;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

function exitText(exit: RecoveryRun['exit']): string {
  if (!exit) return 'an end the rig did not see';
  if (exit.signal) return `signal ${exit.signal}`;
  return `exit code ${exit.exitCode}`;
}

/** What a stall before the server answered was judged on, in words (the reason; rig repro). */
export function stallText(s: StallSeen): string {
  return `from ${seconds(s.afterMs)} after it started it stalled: for ${seconds(s.forMs)} it read and wrote nothing and its threads used ${s.cpuMs} ms of CPU`;
}

function judgeNeverReady(input: JudgeInput, tornText: string): Judgement {
  const { run } = input;
  if (run.timedOut === 'start' && run.stalled) {
    return { verdict: 'hung', reason: `${tornText}; the server did not answer, ${stallText(run.stalled)}, and was killed` };
  }
  if (run.timedOut === 'start') {
    return { verdict: 'hung', reason: `${tornText}; the server did not answer within ${seconds(run.bounds.startMs)} of starting and was killed` };
  }
  if (run.exit?.signal) {
    return { verdict: 'crashed', reason: `${tornText}; the server died during recovery (${exitText(run.exit)}) before it answered` };
  }
  const wal = input.wal;
  if (wal?.logged && wal.lost && !input.loggedCorruption) {
    return { verdict: 'wal-tail-refused', reason: `${tornText}; the server refused to start (${exitText(run.exit)}): RocksDB would not replay its write-ahead log, whose tail a log write dropped or torn at the cut broke` };
  }
  const walCorrupt = wal?.logged === true && !wal.lost;
  const said = input.loggedCorruption || walCorrupt ? 'and reported corruption' : 'without naming corruption';
  const walText = walCorrupt ? ' (RocksDB named its write-ahead log, yet every log write pending at the cut landed whole)' : '';
  const verdict = input.torn.length > 0 || input.loggedCorruption || walCorrupt ? 'detected' : 'refused';
  return { verdict, reason: `${tornText}; the server refused to start (${exitText(run.exit)}) ${said}${walText}` };
}

function corruption(input: JudgeInput): string[] {
  const pagesCount = input.run.shutdown === 'clean';
  // A page the tablespace has freed holds no data: torn or not, it is no corruption.
  const inUse = pagesCount ? input.torn.filter((p) => !p.freedAfter) : [];
  const stillTorn = inUse.filter((p) => p.validAfter === false).length;
  // restored means current: a torn page brought back older than its newest write lost that write
  const stale = inUse.filter((p) => p.validAfter === true && p.currentAfter === false).length;
  const unseen = inUse.filter((p) => p.validAfter === null).length;
  const invalidAfter = pagesCount ? input.pagesAfter.filter((p) => !p.free).length : 0;
  const failed = input.checkTable.failed.length;
  const broken = input.invariants.violations;
  return [
    stillTorn ? `${plural(stillTorn, 'torn page')} still invalid after recovery` : '',
    stale ? `${plural(stale, 'torn page')} restored to a version older than the newest written before the cut` : '',
    unseen ? `${plural(unseen, 'torn page')} not found by the scan after recovery` : '',
    invalidAfter ? `${plural(invalidAfter, 'invalid page')} in use after recovery` : '',
    failed ? `CHECK TABLE failed on ${failed} of ${input.checkTable.tables}` : '',
    broken.length ? `${plural(broken.length, 'data invariant')} broken (${broken[0]})` : '',
    input.ledger.error ? `the ledger could not be read (${input.ledger.error})` : '',
  ].filter(Boolean);
}

function judgeProcess(input: JudgeInput, tornText: string): Judgement | null {
  const { run } = input;
  if (run.endedIn === 'checks') {
    const during = run.checksError ? `: ${run.checksError}` : '';
    if (run.timedOut === 'checks') {
      return { verdict: 'hung', reason: `${tornText}; the server stopped answering during the checks (bound ${seconds(run.bounds.checksMs)}) and was killed${during}` };
    }
    return { verdict: 'crashed', reason: `${tornText}; the server died during the checks (${exitText(run.exit)})${during}` };
  }
  if (run.shutdown !== 'clean') {
    const how = run.timedOut === 'shutdown' ? 'did not finish within its bound and was killed' : `ended with ${exitText(run.exit)}`;
    return { verdict: 'shutdown-crash', reason: `${tornText}; recovered and checked, but the clean shutdown ${how}` };
  }
  return null;
}

export function judgeCycle(input: JudgeInput): Judgement {
  const judged = judgeOutcome(input);
  const order = input.writeOrder;
  if (!order?.violationCount) return judged;
  const pages = plural(order.violationCount, 'page');
  return { ...judged, reason: `${judged.reason}; ordering violation observed at the device: ${pages} had a pending version older than the durable checkpoint LSN ${order.checkpointLsn}` };
}

function judgeOutcome(input: JudgeInput): Judgement {
  const torn = input.torn.length;
  const tornText = torn ? `${plural(torn, 'page')} torn in the crash image` : 'no page torn in the crash image';
  if (input.run.readyMs === null) return judgeNeverReady(input, tornText);
  const lostCommits = input.ledger.checked ? input.ledger.missing : 0;
  const lostSteps = input.ledger.steps?.missing ?? 0;
  if (lostCommits > 0 || lostSteps > 0) {
    const lost = [
      lostCommits ? `${plural(lostCommits, 'acknowledged commit')} missing` : '',
      lostSteps ? `${plural(lostSteps, 'acknowledged lifecycle step')} undone (${input.ledger.steps!.lost[0]})` : '',
    ].filter(Boolean);
    return { verdict: 'lost-commit', reason: `${tornText}; ${lost.join(', ')} after recovery` };
  }
  const problems = corruption(input);
  if (problems.length) {
    const verdict = input.loggedCorruption ? 'reported-corruption' : 'silent-corruption';
    const said = input.loggedCorruption ? 'its log reported corruption' : 'its log reported no corruption';
    return { verdict, reason: `${tornText}; the server started but ${problems.join(', ')}; ${said}` };
  }
  const ended = judgeProcess(input, tornText);
  if (ended) return ended;
  const steps = input.ledger.steps ? `, all ${input.ledger.steps.acked} acknowledged lifecycle steps in effect` : '';
  const ledger = `${input.ledger.checked ? `all ${input.ledger.acked} acknowledged commits present` : 'ledger not checked'}${steps}`;
  if (!torn) return { verdict: 'no-torn', reason: `${tornText}; recovered, ${ledger}` };
  const freed = input.torn.filter((p) => p.freedAfter).length;
  const freedText = freed ? `; ${plural(freed, 'torn page')} left invalid in space the tablespace has freed` : '';
  const by = (a: string) => input.torn.filter((p) => p.attribution === a).length;
  return {
    verdict: 'restored',
    reason: `${tornText}, all in use valid after recovery (doublewrite ${by('doublewrite')}, redo ${by('redo')}, unexplained ${by('unexplained')})${freedText}; ${ledger}`,
  };
}
