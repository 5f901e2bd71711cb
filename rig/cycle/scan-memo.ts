/**
 * What the scans of one recording's crash images remember from state to state (explore, shrink):
 * page verdicts by content and the last few parses of the redo log. Both give exactly what a scan from
 * nothing gives; they only skip the work whose input has not changed.
 */
import { PageVerdicts } from '../pages/page-verdicts.js';
import { RedoParseMemo } from '../pages/redo-parse-memo.js';

export interface ScanMemo {
  verdicts: PageVerdicts;
  redo: RedoParseMemo;
}

export function newScanMemo(): ScanMemo {
  return { verdicts: new PageVerdicts(), redo: new RedoParseMemo() };
}
