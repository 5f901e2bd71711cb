/**
 * Holds the pre-recovery scan against the truth from content: every page the verifier finds
 * invalid must be a torn page, and every torn page must fail the verifier. A difference the record
 * can explain (the file's page 0 is unreadable so its format was assumed, or the file was not
 * verified at all) is listed as explained; any other makes the reconciliation fail, and the cycle
 * is a rig error that carries both lists, never a verdict built on a contradiction. Files whose
 * page 0 held only zeros (a tablespace created moments before the cut) were verified in a format
 * and as a space their page 0 could not name (scan-tablespace.ts): each is listed with where both
 * came from, so the agreement on its pages says what it rests on.
 */
import type { DatadirScan, TablespaceScan } from '../pages/index.js';
import type { Reconciliation } from '../results/types.js';
import type { PageTruth } from './page-truth.js';

const key = (file: string, page: number) => `${file}#${page}`;

export function reconcileScan(truth: readonly PageTruth[], scan: DatadirScan): Reconciliation {
  const torn = new Set(truth.filter((p) => p.class === 'torn').map((p) => key(p.file, p.page)));
  const invalid = new Map(scan.invalid.map((p) => [key(p.file, p.page), { file: p.file, text: `${p.file} page ${p.page}: ${p.reason}` }]));
  const files = new Map(scan.files.map((f) => [f.file, f]));
  const excuse = (file: string): string | null => {
    const f = files.get(file);
    if (!f) return 'the file is not in the scan';
    if (f.unverified) return `the file was not verified (${f.unverified})`;
    if (f.formatAssumed) return 'its page 0 is unreadable, so the page format was assumed';
    return null;
  };
  const invalidNotTorn: string[] = [];
  const tornButValid: string[] = [];
  const explained: string[] = [];
  for (const [k, { file, text }] of invalid) {
    if (torn.has(k)) continue;
    const why = excuse(file);
    if (why) explained.push(`${text} (invalid, not torn: ${why})`);
    else invalidNotTorn.push(text);
  }
  for (const p of truth) {
    if (p.class !== 'torn' || invalid.has(key(p.file, p.page))) continue;
    const why = excuse(p.file);
    const text = `${p.file} page ${p.page}`;
    if (why) explained.push(`${text} (torn, not found invalid: ${why})`);
    else tornButValid.push(text);
  }
  const blankPage0 = scan.files.filter((f) => f.blankPage0).map(describeBlankPage0);
  return { ok: invalidNotTorn.length === 0 && tornButValid.length === 0, invalidNotTorn, tornButValid, explained, ...(blankPage0.length ? { blankPage0 } : {}) };
}

function describeBlankPage0(f: TablespaceScan): string {
  const { formatFrom, survey } = f.blankPage0!;
  const format = `${f.format.fullCrc32 ? 'full_crc32' : 'legacy'} ${f.format.pageSize / 1024} KiB`;
  const space = f.space === null
    ? `no space id (${survey.valid} of ${survey.analyzed} pages surveyed verify and name one), so space ids unchecked`
    : `space ${f.space}${survey.chosen === f.space ? `, named by ${survey.matched} of the ${survey.valid} valid pages of ${survey.analyzed} surveyed` : ''}`;
  return `${f.file}: page 0 all zeros; verified as ${format} (${formatFrom === 'assumed' ? 'assumed' : "the system tablespace's format"}), ${space}`;
}

/** One line for a failed reconciliation, naming both lists (shortened). */
export function describeMismatch(r: Reconciliation): string {
  const list = (items: string[]) => (items.length > 5 ? `${items.slice(0, 5).join(', ')}, ... (${items.length})` : items.join(', '));
  const parts = [
    r.invalidNotTorn.length ? `${r.invalidNotTorn.length} invalid but not torn by the disk's record: ${list(r.invalidNotTorn)}` : '',
    r.tornButValid.length ? `${r.tornButValid.length} torn by the disk's record but valid to the verifier: ${list(r.tornButValid)}` : '',
  ].filter(Boolean);
  return `the pre-recovery scan contradicts the disk's record of torn pages: ${parts.join('; ')}`;
}
