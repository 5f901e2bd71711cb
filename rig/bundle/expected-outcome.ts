/**
 * What a bundle's reproduce.sh is told the rig saw (expected.env, sourced by the script): the
 * outcome class of the verdict, the log line that names the failure, the tables to check, the
 * commits acknowledged, the server and the image to run it in. The outcome classes are what a
 * server run shows without the rig's scans: it refuses to start, answers with a table that fails
 * CHECK TABLE, loses acknowledged commits, dies, hangs, or fails its clean shutdown. A silent
 * corruption shows through the pages it names: a torn page the server brought back older than the
 * newest version written to it before the cut, read by its LSN once the server is down.
 */
import type { LoadResult } from '../load/index.js';
import { DEFAULT_SCHEMA } from '../load/dataset.js';
import { failureClass } from '../findings/failure-signature.js';
import type { CycleRecord } from '../results/types.js';
import { serverIdentity } from '../results/server-identity.js';
import { shellQuote } from '../vm/shell-quote.js';

/** An extended regular expression that matches `text` literally. */
export function literalPattern(text: string): string {
  return text.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&');
}

/**
 * The log line that names the failure: the first the server logged of a corruption, an LSN in the
 * future, a WAL refusal or another error (the cause), else the first abort (what followed it);
 * from after its level (`[ERROR]`, `[Note]`): the timestamp and thread before it differ run to
 * run. Empty when the log named none.
 */
export function failureLine(record: CycleRecord): string {
  const events = record.errorLog.events;
  const event = events.find((e) => ['corruption', 'lsn-in-future', 'rocksdb-wal', 'error'].includes(e.kind)) ?? events.find((e) => e.kind === 'abort');
  if (!event) return '';
  return event.text.replace(/^.*?\[(?:ERROR|Error|Warning|Note|System)\]\s*/, '').trim();
}

/**
 * The torn pages the rig saw restored to a version older than the newest written before the cut,
 * as "file:page:newest LSN" (the file relative to the datadir): after a clean recovery, such a page
 * with an LSN below that is the silent corruption again.
 */
export function stalePages(record: CycleRecord): string {
  return record.tornPagesBefore
    .filter((p) => p.validAfter === true && p.currentAfter === false && p.newestLsn !== null)
    .map((p) => `${p.file.replace(/^\.\//, '')}:${p.page}:${p.newestLsn}`)
    .join(' ');
}

/** The image a Docker user runs: the cycle's own, or for the host's MariaDB the offline image of the same Debian release. */
export function imageFor(record: CycleRecord): string {
  if (record.settings.runtime === 'docker' && record.settings.image) return record.settings.image;
  const version = record.server?.version ?? '';
  if (/\b10\.11\.\d+-MariaDB/.test(version)) return 'powercut-rig/mariadb-offline:10.11';
  if (/\b11\.8\.\d+-MariaDB/.test(version)) return 'powercut-rig/mariadb-offline:11.8';
  return '';
}

export function expectedEnv(record: CycleRecord, load: LoadResult | null): string {
  const outcome = failureClass(record.verdict);
  if (!outcome) throw new Error(`${record.verdict} is not a failure`);
  const flavor = serverIdentity(record.server?.version ?? '').flavor;
  const line = failureLine(record);
  const ledger = load?.ledger ? [...load.acked].map(([client, seq]) => `${client}:${seq}`).join(' ') : '';
  const vars: Record<string, string> = {
    EXPECT_OUTCOME: outcome,
    EXPECT_VERDICT: record.verdict,
    EXPECT_REASON: record.reason,
    EXPECT_LOG: line ? literalPattern(line) : '',
    EXPECT_LOG_TEXT: line,
    EXPECT_FLAVOR: flavor,
    EXPECT_SERVER: flavor === 'mysql' ? 'mysqld' : 'mariadbd',
    EXPECT_IMAGE: imageFor(record),
    SCHEMA: DEFAULT_SCHEMA,
    LEDGER: ledger,
    EXPECT_PAGE_SIZE: String(record.settings.server.pageSize),
    EXPECT_STALE_PAGES: stalePages(record),
  };
  const lines = Object.entries(vars).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return `# What the rig saw (written by rig bundle from cycle.json); reproduce.sh reads it.\n${lines.join('\n')}\n`;
}
