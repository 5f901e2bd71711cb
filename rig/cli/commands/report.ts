/** `rig report DIR [--out FILE]`: renders a saved campaign's HTML report and prints its path. */
import type { Command } from 'commander';
import { writeReport } from '../../../reports/write-report.js';
import { runAction } from '../run-action.js';

export { writeReport };

export function register(program: Command): void {
  program
    .command('report')
    .description('render DIR/results.json as one self-contained HTML file (DIR/index.html by default)')
    .argument('<dir>', 'a campaign output folder holding results.json')
    .option('--out <file>', 'write the report here instead of DIR/index.html')
    .action(runAction(async (dir: string, options: { out?: string }) => {
      const path = await writeReport(dir, options.out);
      process.stdout.write(`${path}\n`);
    }));
}
