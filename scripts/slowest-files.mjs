// The time budget that ends a run's log (a CI log is often read from its tail): the slowest test
// files and how long tap ran. tap prints one unindented line per file,
//   ok 6 - test/campaign/run-campaign.int.test.ts # time=62974.762ms
// (`not ok` when it failed; `# SKIP why` and no time when the file skipped all it has).
// run-tests.mjs keeps only the tail of tap's output, so it picks these lines out as they stream.

const FILE_LINE = /^(?:not )?ok \d+ - (.+?) # (?:time=([\d.]+)ms|SKIP\b.*)$/;

/**
 * The files' lines among the whole lines of `text`, and what follows its last newline: the start of
 * a line that the next chunk of output ends.
 * @param {string} text what the last call left over, then the next chunk
 * @returns {{ files: { file: string, ms: number | null }[], rest: string }} ms null: skipped whole
 */
export function fileTimesIn(text) {
  const lines = text.split('\n');
  const rest = lines.pop() ?? '';
  const files = [];
  for (const line of lines) {
    const m = FILE_LINE.exec(line);
    if (m) files.push({ file: m[1], ms: m[2] === undefined ? null : Number(m[2]) });
  }
  return { files, rest };
}

/**
 * Printable lines: the `count` slowest files, slowest first, then how many files tap ran in how long.
 * @param {{ file: string, ms: number | null }[]} files
 * @param {number} wallMs the tap run's wall time
 */
export function slowestLines(files, wallMs, count = 10) {
  const slowest = files.filter((f) => f.ms !== null).sort((a, b) => b.ms - a.ms).slice(0, count);
  const out = slowest.length ? ['# slowest files:'] : [];
  for (const f of slowest) out.push(`#  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`);
  out.push(`# tap ran ${files.length} files in ${(wallMs / 60000).toFixed(1)} min`);
  return out;
}
