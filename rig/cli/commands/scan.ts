/**
 * `rig scan DATADIR [--json]`: verifies every page of every tablespace in a (stopped) server's
 * datadir and prints the invalid ones. Exit 1 if any page is invalid, 0 if none, 2 on bad input
 * (no such folder, or a folder holding no tablespace, or only empty ones).
 */
import type { Command } from 'commander';
import { badInput } from '../../errors.js';
import { readDoublewrite, scanDatadir, type DatadirScan } from '../../pages/index.js';
import { runAction } from '../run-action.js';

export function register(program: Command): void {
  program
    .command('scan')
    .description("verify every InnoDB page in DATADIR (checksums, LSN trailer, page number, space id)")
    .argument('<datadir>', "a server's data directory (stop the server first)")
    .option('--json', 'print one JSON object: pages, invalid pages, doublewrite copies')
    .action(runAction(async (datadir: string, options: { json?: boolean }) => {
      const scan = await scanDatadir(datadir);
      // a folder with no tablespace verifies nothing: saying "0 invalid" would read as a clean datadir
      if (!scan.files.length) throw badInput(`${datadir} holds no InnoDB tablespace (no ibdata1, undo or .ibd file): give the server's datadir`);
      if (!scan.pages) throw badInput(`${datadir} holds no InnoDB page (every tablespace file in it is empty): give the datadir of a server that has run`);
      if (options.json) {
        const copies = await readDoublewrite(datadir);
        process.stdout.write(`${JSON.stringify({ ...summarize(scan), doublewrite: copies }, null, 2)}\n`);
      } else {
        process.stdout.write(renderText(scan));
      }
      return scan.invalid.length > 0 ? 1 : 0;
    }));
}

function summarize(scan: DatadirScan) {
  return {
    datadir: scan.datadir,
    pages: scan.pages,
    files: scan.files.map(({ file, space, format, pages, zeroPages, skippedPages, invalid, unverified }) => (
      { file, space, format, pages, zeroPages, skippedPages, invalid: invalid.length, ...(unverified ? { unverified } : {}) })),
    doublewriteArea: scan.doublewriteArea,
    invalid: scan.invalid,
    elapsedMs: scan.elapsedMs,
  };
}

function renderText(scan: DatadirScan): string {
  const lines = scan.invalid.map((p) => `space ${p.space ?? '?'} page ${p.page} ${p.file}: ${p.reason} (${p.detail})`);
  for (const f of scan.files.filter((x) => x.unverified)) lines.push(`${f.file}: not verified: ${f.unverified}`);
  const area = scan.doublewriteArea;
  const skipped = area ? `; doublewrite area pages ${area.blocks.map((b) => `${b}-${b + area.blockPages - 1}`).join(', ')} hold copies and were not judged as live pages` : '';
  lines.push(`${scan.invalid.length} invalid of ${scan.pages} pages in ${scan.files.length} files (${scan.elapsedMs} ms)${skipped}`);
  return `${lines.join('\n')}\n`;
}
