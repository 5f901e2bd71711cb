// Names each failed test from the TAP that tap saves per file (.tap/test-results), so the last
// lines of a long run say what failed, not only how many: a CI log is often read from its tail.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

/**
 * The failures in one file's TAP text: each `not ok` that no failed subtest of its own explains,
 * as the chain of subtest names down to it and a line of where and what (from its diagnostic).
 * @param {string} tap
 * @returns {{ path: string[], detail: string }[]}
 */
export function failuresIn(tap) {
  const lines = tap.split('\n');
  const found = [];
  const open = []; // the names of the subtests open at each depth
  for (let i = 0; i < lines.length; i++) {
    const subtest = /^( *)# Subtest: (.*)$/.exec(lines[i]);
    if (subtest) {
      const depth = subtest[1].length / 4;
      open.length = depth;
      open[depth] = subtest[2];
      continue;
    }
    const result = /^( *)not ok \d+ - (.*?)(?: # time=[\d.]+m?s)?$/.exec(lines[i]);
    if (!result || /# (TODO|SKIP)\b/.test(lines[i])) continue;
    const path = [...open.slice(0, result[1].length / 4), result[2]];
    // A subtest that failed because something inside it failed adds nothing: that is listed.
    if (found.some((f) => f.path.length > path.length && path.every((p, k) => f.path[k] === p))) continue;
    found.push({ path, detail: detailOf(lines, i + 1) });
  }
  return found;
}

/** "at FILE:LINE, found X, wanted Y" from the YAML block that starts at line `from`, if any. */
function detailOf(lines, from) {
  if (lines[from]?.trim() !== '---') return '';
  const end = lines.findIndex((l, k) => k > from && l.trim() === '...');
  if (end < 0) return '';
  const indent = lines[from].indexOf('---');
  let diag;
  try {
    diag = parse(lines.slice(from + 1, end).map((l) => l.slice(indent)).join('\n'));
  } catch {
    return '';
  }
  if (!diag || typeof diag !== 'object') return '';
  const parts = [];
  if (diag.at?.fileName) parts.push(`at ${diag.at.fileName}:${diag.at.lineNumber}`);
  for (const key of ['found', 'wanted', 'exitCode', 'signal', 'code']) {
    if (diag[key] === undefined || typeof diag[key] === 'object') continue;
    parts.push(`${key} ${short(String(diag[key]))}`);
  }
  return parts.join(', ');
}

function short(s) {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
}

/** Every failure under tap's results folder, as printable lines (none: an empty list). */
export function listFailures(dir) {
  const out = [];
  for (const file of tapFiles(dir)) {
    const name = relative(dir, file).replace(/\.tap$/, '');
    for (const f of failuresIn(readFileSync(file, 'utf8'))) {
      out.push(`# failed: ${name} > ${f.path.map(short).join(' > ')}${f.detail ? ` (${f.detail})` : ''}`);
    }
  }
  return out;
}

function tapFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? tapFiles(join(dir, e.name)) : e.name.endsWith('.tap') ? [join(dir, e.name)] : [])).sort();
}
