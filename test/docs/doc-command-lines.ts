/**
 * Every `rig` command line the documentation shows, with the file and line that shows it: in fenced
 * code blocks (each line read as a shell line) and in inline code. A line counts when, after
 * `NAME=value` assignments, it starts with `rig`, `npx rig`, `node dist/rig/cli/main.js` (also after
 * `rig vm run ... --`) or `docker compose run ... rig` (the rig's own container); a `$NAME` the same
 * block assigned is expanded first. Inline code may be usage text: `[--out DIR]` reads as
 * `--out DIR`, and `fuse|dm` as two lines, one per choice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface DocCommand {
  file: string; // as given, e.g. relative to the package root
  line: number; // 1-based
  text: string; // the command as written there (a block's line after its continuations)
  args: string[]; // what follows `rig`
  inline: boolean; // from inline code: it may name a command without the arguments it needs
}

/** README.md and every .md file under docs/, relative to `root`. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', ...docs.sort()].map((f) => relative(root, join(root, f)));
}

const FENCE = /^\s*(```+|~~~+)/;

/** The command lines of one markdown text. */
export function commandLines(file: string, text: string): DocCommand[] {
  const lines = text.split('\n');
  const found: DocCommand[] = [];
  const prose: string[] = []; // the text outside fences, fences blanked, so offsets keep their lines
  let fence: string | null = null;
  let vars = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = FENCE.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      vars = new Map();
      prose.push('');
      continue;
    }
    if (fence !== null) {
      if (marker && marker.startsWith(fence) && line.trim() === marker) fence = null;
      else {
        // a line ending in a backslash goes on on the next one
        let joined = line;
        const first = i;
        while (joined.endsWith('\\') && i + 1 < lines.length) joined = joined.slice(0, -1) + ' ' + lines[++i]!;
        for (let k = first; k <= i; k++) prose.push('');
        found.push(...fromShellLine(file, first + 1, joined, vars, false));
        continue;
      }
      prose.push('');
      continue;
    }
    prose.push(line);
  }
  const outside = prose.join('\n');
  for (const m of outside.matchAll(/(`+)([^`]+?)\1/g)) {
    const code = m[2]!;
    if (code.includes('\n\n')) continue;
    const line = outside.slice(0, m.index).split('\n').length;
    found.push(...fromShellLine(file, line, code.replace(/\s*\n\s*/g, ' '), new Map(), true));
  }
  return found.sort((a, b) => a.line - b.line);
}

interface Word {
  text: string;
  quoted: boolean; // any part of it was quoted
}

type Token = Word | { op: string };

const isOp = (t: Token): t is { op: string } => 'op' in t;

/** Shell words and the operators between commands; a `#` that starts a word ends the line. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let quoted = false;
  let inWord = false;
  const end = () => {
    if (inWord) tokens.push({ text: word, quoted });
    word = '';
    quoted = false;
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const stop = close < 0 ? line.length : close;
      word += line.slice(i + 1, stop);
      quoted = inWord = true;
      i = stop;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === '$' && line[i + 1] === '(') {
      // a command substitution stays one word, as the value it stands for
      let depth = 0;
      let j = i;
      for (; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) break;
      }
      word += line.slice(i, j + 1);
      inWord = true;
      i = j;
    } else if (/\s/.test(c)) {
      end();
    } else if (c === '#' && !inWord) {
      break;
    } else if (c === '&' && word.endsWith('>')) {
      word += c; // 2>&1
      inWord = true;
    } else if (c === ';' || c === '&' || (c === '|' && !(inWord && /[^\s|]/.test(line[i + 1] ?? ' ')))) {
      // `a|b` inside a word is usage text's choice; a spaced `|`, `||`, `&&`, `;` and `&` end a command
      end();
      let op = c;
      while (line[i + 1] === c) op += line[++i];
      tokens.push({ op });
    } else {
      word += c;
      inWord = true;
    }
  }
  end();
  return tokens;
}

const REDIRECT = /^(\d?>>?|&>|<|\d?>&\d)$/;
const REDIRECT_TO = /^(\d?>>?|&>|<)$/; // the next word is where it goes
const KEYWORDS = new Set(['do', 'then', 'else', 'time', '!']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const RIG_MAIN = /(^|\/)dist\/rig\/cli\/main\.js$/;

/** The command lines in one shell line (or one inline code span). */
function fromShellLine(file: string, line: number, text: string, vars: Map<string, string>, inline: boolean): DocCommand[] {
  const commands: DocCommand[] = [];
  let words: Word[] = [];
  const flush = () => {
    commands.push(...fromWords(file, line, text.trim(), words, vars, inline));
    words = [];
  };
  for (const token of tokenize(text)) {
    if (isOp(token)) flush();
    else words.push(token);
  }
  flush();
  return commands;
}

function fromWords(file: string, line: number, text: string, words: Word[], vars: Map<string, string>, inline: boolean): DocCommand[] {
  // NAME="value" alone assigns a variable a later line of the block may use
  if (words.length === 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!.text)) {
    const [name, ...value] = words[0]!.text.split('=');
    vars.set(name!, value.join('='));
    return [];
  }
  let rest = words.filter((w, i) => !(REDIRECT.test(w.text) && !w.quoted) && !(i > 0 && REDIRECT_TO.test(words[i - 1]!.text) && !words[i - 1]!.quoted));
  while (rest.length && ((ASSIGNMENT.test(rest[0]!.text) && !rest[0]!.quoted) || KEYWORDS.has(rest[0]!.text))) rest = rest.slice(1);
  const head = rest[0]?.text;
  if (head?.startsWith('$') && vars.has(head.slice(1))) {
    const expanded = tokenize(vars.get(head.slice(1))!).filter((t): t is Word => !isOp(t));
    return fromWords(file, line, text, [...expanded, ...rest.slice(1)], vars, inline);
  }
  const args = rigArgs(rest.map((w) => w.text));
  if (args === null) return [];
  const usage = inline ? args.map((a) => a.replace(/^\[+/, '').replace(/\]+$/, '')).filter((a) => a !== '') : args;
  const lines = choices(usage).map((variant) => ({ file, line, text, args: variant, inline }));
  // the command `rig vm run` runs in the guest may be the rig too
  const dashes = args.indexOf('--');
  const nested = args[0] === 'vm' && dashes > 0 ? rigArgs(args.slice(dashes + 1)) : null;
  if (nested) lines.push({ file, line, text, args: nested, inline });
  return lines;
}

/** The arguments after the rig's own name, or null when the words run something else. */
function rigArgs(words: string[]): string[] | null {
  if (words[0] === 'rig') return words.slice(1);
  if (words[0] === 'npx' && words[1] === 'rig') return words.slice(2);
  if (words[0] === 'node' && RIG_MAIN.test(words[1] ?? '')) return words.slice(2);
  if (words[0] === 'docker' && words[1] === 'compose' && words[2] === 'run') {
    const service = words.findIndex((w, i) => i > 2 && !w.startsWith('-'));
    if (words[service] === 'rig') return words.slice(service + 1);
  }
  return null;
}

/** One line per choice where usage text offers `a|b` (each such word in turn). */
function choices(args: string[]): string[][] {
  const at = args.findIndex((a) => /[^|]\|[^|]/.test(a));
  if (at < 0) return [args];
  return args[at]!.split('|').flatMap((choice) => choices([...args.slice(0, at), choice, ...args.slice(at + 1)]));
}

/** Words that stand for a value the reader supplies: DIR, CYCLE_DIR, NAME.tar.gz, I/N, $VAR, <id>. */
export function isPlaceholder(word: string): boolean {
  if (/[$<>]|\.\.\./.test(word)) return true;
  return word.split('/').some((part) => /^[A-Z][A-Z0-9_]*$/.test(part.split('.')[0]!));
}

/** The file's text, for commandLines. */
export function readDoc(root: string, file: string): string {
  return readFileSync(join(root, file), 'utf8');
}

/** The text with its fenced blocks blanked, line for line. */
function prose(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker;
        return '';
      }
      if (fence !== null) {
        if (marker && marker.startsWith(fence) && line.trim() === marker) fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** The fenced blocks marked yaml, each with the line it starts on (its first line of content). */
export function yamlBlocks(text: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(```+|~~~+)\s*ya?ml\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    while (++i < lines.length && lines[i]!.trim() !== open[1]);
    blocks.push({ line: start + 1, text: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

/** The relative links of a page, outside code: `[text](target)`, the target without a title. */
export function linksIn(text: string): { line: number; target: string }[] {
  const outside = prose(text).replace(/(`+)[^`]+?\1/g, (code) => code.replace(/[^\n]/g, ' '));
  return [...outside.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .filter((m) => !/^[a-z][a-z0-9+.-]*:/i.test(m[1]!))
    .map((m) => ({ line: outside.slice(0, m.index).split('\n').length, target: m[1]! }));
}

/** The anchors a page's headings get, as GitHub makes them. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}
