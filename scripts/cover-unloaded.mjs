// Coverage of the source files no test loaded, as 0%. tap 21 (c8 underneath) reports only the
// files a test process loaded and has no option like c8's --all, so a module without a test
// vanished from the totals instead of pulling them down. This writes, next to tap's own V8
// coverage, an entry with a count of 0 for each missing file; `tap report` then counts its lines.
// The entry is built as tap's TypeScript loader (ts-node, transpile only) would have run the file:
// the same transpile and source map, so a file counts the same lines loaded or not (c8 counts every
// line of a file it reports, comments included). A file of types only transpiles to nothing that
// runs, so no test can load it: it is left out rather than counted as 0%.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Every .ts file (not .d.ts) under `dirs`, as absolute paths. */
export function sourceFiles(root, dirs) {
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(path);
      return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
    });
  return dirs.flatMap((d) => walk(resolve(root, d))).sort();
}

/** The compiler options tap's loader uses: tsconfig.json's, with ts-node's fixed overrides. */
function loaderOptions(root) {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`cannot read ${join(root, 'tsconfig.json')}`);
  return {
    ...parsed.options,
    module: ts.ModuleKind.ESNext, // the package is "type": "module": ts-node emits ES modules
    sourceMap: true,
    inlineSourceMap: false,
    inlineSources: true,
    declaration: false,
    noEmit: false,
  };
}

/** True when the emitted module is empty but for `export {}` (the source declares only types). */
function emitsNothing(outputText) {
  const emitted = ts.createSourceFile('emitted.js', outputText, ts.ScriptTarget.Latest);
  return emitted.statements.every((s) => ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause) && s.exportClause.elements.length === 0);
}

/**
 * One V8 script coverage with a count of 0 for the whole file, and its source-map-cache entry;
 * null for a file of types only.
 */
function zeroCoverage(file, options) {
  const { outputText, sourceMapText } = ts.transpileModule(readFileSync(file, 'utf8'), { fileName: file, compilerOptions: options });
  if (emitsNothing(outputText)) return null;
  const url = pathToFileURL(file).href;
  const map = JSON.parse(sourceMapText);
  map.file = file;
  map.sources = [url];
  return {
    file,
    script: {
      scriptId: '0',
      url,
      functions: [{ functionName: '(empty-report)', ranges: [{ startOffset: 0, endOffset: outputText.length, count: 0 }], isBlockCoverage: true }],
    },
    cache: [url, { lineLengths: outputText.split('\n').map((l) => l.length), data: map }],
  };
}

/**
 * Writes `out` (a V8 coverage file) for the files under `dirs` that are not in `loaded` (absolute
 * paths); returns those files (`unloaded`) and the ones left out as types only (`typeOnly`).
 */
export function writeUnloadedCoverage({ root, dirs, loaded, out }) {
  const missing = sourceFiles(root, dirs).filter((f) => !loaded.has(f));
  const options = loaderOptions(root);
  const entries = missing.map((f) => zeroCoverage(f, options)).filter((e) => e !== null);
  const unloaded = entries.map((e) => e.file);
  if (entries.length > 0) {
    const coverage = { result: entries.map((e) => e.script), 'source-map-cache': Object.fromEntries(entries.map((e) => e.cache)) };
    writeFileSync(out, JSON.stringify(coverage));
  }
  return { unloaded, typeOnly: missing.filter((f) => !unloaded.includes(f)) };
}
