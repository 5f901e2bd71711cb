/**
 * The verdict of one cycle, from the rig's ground truth (which pages tore) joined with what the
 * server did and what the checks found. Log lines are evidence, never the verdict: MariaDB can
 * restore pages from doublewrite without a word, and can blame intact pages after one torn page.
 */
import type { CycleRecord, Verdict } from '../results/types.js';

export interface JudgeInput {
  torn: CycleRecord['tornPagesBefore'];
  serverStarted: boolean;
  loggedCorruption: boolean;
  ledger: CycleRecord['ledger'];
  checkTable: CycleRecord['checkTable'];
  invariants: CycleRecord['invariants'];
  pagesAfter: CycleRecord['pagesAfter'];
}

export interface Judgement {
  verdict: Verdict;
  reason: string;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function judgeCycle(input: JudgeInput): Judgement {
  const torn = input.torn.length;
  const tornText = torn ? `${plural(torn, 'page')} torn in the crash image` : 'no page torn in the crash image';
  if (!input.serverStarted) {
    const said = input.loggedCorruption ? 'and reported corruption' : 'without naming corruption';
    return { verdict: 'detected', reason: `${tornText}; the server refused to start ${said}` };
  }
  if (input.ledger.checked && input.ledger.missing > 0) {
    return {
      verdict: 'lost-commit',
      reason: `${tornText}; ${plural(input.ledger.missing, 'acknowledged commit')} missing after recovery`,
    };
  }
  // A page the tablespace has freed holds no data: torn or not, it is no corruption.
  const stillTorn = input.torn.filter((p) => p.validAfter === false && !p.freedAfter).length;
  // restored means current: a torn page brought back older than its newest write lost that write
  const stale = input.torn.filter((p) => p.validAfter === true && p.currentAfter === false && !p.freedAfter).length;
  const unseen = input.torn.filter((p) => p.validAfter === null && !p.freedAfter).length;
  const invalidAfter = input.pagesAfter.filter((p) => !p.free).length;
  const problems = [
    stillTorn ? `${plural(stillTorn, 'torn page')} still invalid after recovery` : '',
    stale ? `${plural(stale, 'torn page')} restored to a version older than the newest written before the cut` : '',
    unseen ? `${plural(unseen, 'torn page')} not found by the scan after recovery` : '',
    invalidAfter ? `${plural(invalidAfter, 'invalid page')} in use after recovery` : '',
    input.checkTable.failed.length ? `CHECK TABLE failed on ${input.checkTable.failed.length} of ${input.checkTable.tables}` : '',
    input.invariants.violations.length ? `${plural(input.invariants.violations.length, 'data invariant')} broken (${input.invariants.violations[0]})` : '',
  ].filter(Boolean);
  if (problems.length) {
    return { verdict: 'silent-corruption', reason: `${tornText}; the server started but ${problems.join(', ')}` };
  }
  const ledger = input.ledger.checked ? `all ${input.ledger.acked} acknowledged commits present` : 'ledger not checked';
  if (!torn) return { verdict: 'no-torn', reason: `${tornText}; recovered, ${ledger}` };
  const freed = input.torn.filter((p) => p.freedAfter).length;
  const freedText = freed ? `; ${plural(freed, 'torn page')} left invalid in space the tablespace has freed` : '';
  const by = (a: string) => input.torn.filter((p) => p.attribution === a).length;
  return {
    verdict: 'restored',
    reason: `${tornText}, all in use valid after recovery (doublewrite ${by('doublewrite')}, redo ${by('redo')}, unexplained ${by('unexplained')})${freedText}; ${ledger}`,
  };
}
