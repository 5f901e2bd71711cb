/**
 * The README.md of a bundle, from the cycle's record: what failed on which server, how to run it
 * again without the rig, what the rig saw (the verdict, the log line, the torn pages and their
 * copies), the crash (settings, writes that did not land, what it was shrunk from), and for a torn
 * page 0 the command that puts its doublewrite copy back by hand.
 */
import type { Finding } from '../findings/catalog.js';
import type { CycleRecord, TornPage } from '../results/types.js';
import { doublewriteMode } from '../results/doublewrite-mode.js';
import { blocksDigestCommand, blocksDigestName, digestBlockOf } from '../results/crash-image-digest.js';
import { failureLine } from './expected-outcome.js';

export interface ReadmeInput {
  record: CycleRecord;
  finding: Finding | null;
  image: string; // the image reproduce.sh runs with Docker ('' when none is known)
  identity: string; // the server: version, and package or image
  options: string[];
  withImage: boolean;
}

function tornLine(p: TornPage): string {
  const copy = p.doublewrite.copies.filter((c) => c.accepted).sort((a, b) => b.lsn - a.lsn)[0];
  const after = p.validAfter === true ? 'valid after recovery' : p.validAfter === false ? 'still invalid after recovery' : 'not scanned after recovery';
  return `| ${p.file} | ${p.page} | ${copy ? `${copy.source} slot ${copy.slot}, LSN ${copy.lsn}` : `none (${p.doublewrite.why})`} | ${after} |`;
}

/** For each torn page 0 with an accepted copy in ibdata1: the dd that writes the copy over it. */
function page0Fix(record: CycleRecord): string[] {
  const ps = record.settings.server.pageSize;
  return record.tornPagesBefore
    .filter((p) => p.page === 0 && p.doublewrite.restorable)
    .map((p) => {
      const copy = p.doublewrite.copies.filter((c) => c.accepted).sort((a, b) => b.lsn - a.lsn)[0]!;
      return `dd if=datadir/${copy.source.replace(/^\.\//, '')} of=datadir/${p.file.replace(/^\.\//, '')} bs=${ps} skip=${copy.slot} seek=0 count=1 conv=notrunc`;
    });
}

export function bundleReadme(input: ReadmeInput): string {
  const { record } = input;
  const s = record.settings;
  const line = failureLine(record);
  const title = input.finding ? input.finding.title : `${record.verdict}: ${record.reason}`;
  const notLanded = record.pendingWrites.filter((w) => w.fate !== 'landed');
  const fix = page0Fix(record);
  const out: string[] = [
    `# ${title}`,
    '',
    `A crash image on which ${input.identity} failed its recovery, as the rig powercut-rig judged it: **${record.verdict}**. ` +
      'This folder has what it takes to run that recovery again on any build of the server, with no rig.',
    '',
    '## Run it',
    '',
    '```sh',
    ...(input.image ? [`./reproduce.sh                              # with Docker, in ${input.image} (IMAGE=... for another)`] : []),
    `${s.server.engine === 'innodb' && input.identity.includes('MySQL') ? 'MYSQLD=/path/to/mysqld' : 'MARIADBD=/path/to/mariadbd'} ./reproduce.sh   # your own build (MYSQL_CLIENT=... if its client is elsewhere)`,
    'git bisect run /path/to/this/folder/reproduce.sh   # in a server tree, with MARIADBD or MYSQLD set to the build',
    '```',
    '',
    'reproduce.sh copies `datadir/` to a temporary folder, starts the server on it with the options in',
    '`server-options.txt`, waits for it to answer or stop, runs CHECK TABLE on every table of the',
    `\`sbtest\` schema and the ledger of acknowledged commits, shuts it down, reads the LSN of each page the`,
    'rig saw brought back older than its newest version (if any), and prints what it saw next',
    'to what the rig saw. Exit 1: the failure reproduced; 0: the server recovered cleanly; 2: it failed',
    'another way; 125: it could not run (no server, no Docker, no client).',
    '',
    '## What the rig saw',
    '',
    `- Server: ${input.identity}`,
    `- Verdict: ${record.verdict} (the claim was \`${record.expectation}\`): ${record.reason}`,
    ...(line ? [`- The server's log: \`${line}\``] : []),
    ...(record.checkTable.failed.length ? [`- CHECK TABLE failed: ${record.checkTable.failed.join('; ')}`] : []),
    ...(record.ledger.missing ? [`- Acknowledged commits missing: ${record.ledger.missing}`] : []),
    ...(input.finding ? [`- Finding: ${input.finding.id} (FINDING.md is the rig's write-up)`] : []),
    '- The rig\'s record and the recovery\'s full log: `rig/cycle.json`, `rig/error.log`.',
    '',
  ];
  if (record.tornPagesBefore.length) {
    out.push('Torn pages in the crash image (the device kept part of a page write):', '', '| file | page | doublewrite copy the server\'s rules accept | after recovery |', '|---|---|---|---|');
    out.push(...record.tornPagesBefore.slice(0, 40).map(tornLine));
    if (record.tornPagesBefore.length > 40) out.push(`| ... and ${record.tornPagesBefore.length - 40} more (rig/cycle.json) | | | |`);
    out.push('');
  }
  if (fix.length) {
    out.push('To check that the copy alone is what recovery lacks, put it back by hand and run again (exit 0 expected):', '', '```sh', ...fix, './reproduce.sh', '```', '');
  }
  out.push(
    '## The crash',
    '',
    `- Settings: doublewrite ${doublewriteMode(s.server.doublewrite)}, innodb_flush_method ${s.server.flushMethod}, ${s.server.pageSize / 1024}k pages; ` +
      `a disk with a ${s.disk.atomicUnit / 1024 >= 1 ? `${s.disk.atomicUnit / 1024}k` : `${s.disk.atomicUnit}-byte`} atomic write unit and a ${s.disk.model?.cache ?? 'volatile'} write cache, ${s.disk.fs}.`,
    `- At the power cut ${record.pendingWrites.length} writes had not been flushed; ${notLanded.length} of them did not land whole (${notLanded.filter((w) => w.fate === 'torn').length} torn at the atomic unit, ${notLanded.filter((w) => w.fate === 'dropped').length} dropped), the rest landed.`,
    ...(record.shrunk ? [`- Shrunk by \`rig shrink\` from ${record.shrunk.writesBefore} writes not landed to ${record.shrunk.writesAfter} (${record.shrunk.minimal ? '1-minimal: landing any one more of them makes the failure go away' : 'not shown minimal'}), torn pages ${record.shrunk.tornBefore} -> ${record.shrunk.tornAfter}, in ${record.shrunk.trials} recoveries.`] : []),
    record.crashImageBlocksSha256
      ? `- The crash image's ${blocksDigestName(digestBlockOf(record))}' sha256s: ${record.crashImageBlocksSha256}${input.withImage ? ` (crash.img, the whole disk image: \`${blocksDigestCommand('crash.img', digestBlockOf(record))}\`)` : ''}.`
      : `- The crash image's sha256: ${record.crashImageSha256 ?? 'unknown'}${input.withImage ? ' (crash.img, the whole disk image)' : ''}.`,
    '',
    '## Server options',
    '',
    'As the rig passed them, besides the paths reproduce.sh sets (`--datadir`, `--socket`, `--pid-file`, `--tmpdir`, `--log-error`) and `--no-defaults`:',
    '',
    '```',
    ...input.options,
    '```',
    '',
  );
  return out.join('\n');
}
