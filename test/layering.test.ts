/**
 * The house's layers, from the ground up: a module imports from its own layer or a lower one, never
 * a higher one, and no modules import each other in a circle (static imports, `import type` and
 * dynamic `import()` alike). A record type that every layer shares (rig/results/) imports nothing
 * above it; process ownership, the rig's version, its paths and the check of a folder a flag names
 * are on the ground, where every layer may use them. faults/ is a library of its own
 * (test/faults/layering.test.ts).
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../rig/paths.js';

const LAYERS: Array<[RegExp, number, string]> = [
  [/^faults\//, 0, 'the disk'],
  [/^rig\/(errors|context|paths|interrupts|process-owner|version|folder-path|folder-state)\.ts$/, 0, 'the ground'],
  [/^rig\/(pages|vm|docker)\//, 1, 'pages, the guest, the engine'],
  [/^rig\/(results|findings|history)\//, 2, 'records, findings and their history'],
  [/^rig\/(logs\/|defaults\.ts$)/, 3, 'logs and defaults'],
  [/^rig\/runtime\//, 4, 'runtimes'],
  [/^rig\/load\//, 5, 'the load'],
  [/^rig\/checks\//, 6, 'checks'],
  [/^rig\/cycle\//, 7, 'the cycle'],
  [/^rig\/(explore|perf|cleanup)\//, 8, 'explore, perf, cleanup'],
  [/^rig\/(repro|shrink|bundle)\//, 9, 'repro, shrink, bundle'],
  [/^(rig\/campaign|reports)\//, 10, 'campaigns and reports'],
  [/^(rig\/cli|bench)\//, 11, 'the CLI and benches'],
];

const layerOf = (file: string) => LAYERS.find(([re]) => re.test(file))?.[1] ?? null;

/** Every TypeScript module of the project, and the project modules each imports. */
function importGraph(): Map<string, string[]> {
  const files = ['rig', 'faults', 'reports', 'bench'].flatMap((dir) =>
    readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => `${dir}/${f}`));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    const specs = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
    const targets = specs.map((s) => relative(PACKAGE_ROOT, resolve(dirname(join(PACKAGE_ROOT, file)), s)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets.filter((f) => known.has(f)))]);
  }
  return graph;
}

/** The groups of modules that reach each other (Tarjan's strongly connected components of two or more). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const graph = importGraph();

t.test('every module is in a layer', async (t) => {
  t.ok(graph.size > 300, `${graph.size} modules read`);
  t.same([...graph.keys()].filter((f) => layerOf(f) === null), [], 'modules no layer names: add their folder to LAYERS');
});

t.test('no module imports from a layer above its own', async (t) => {
  const upward = [...graph].flatMap(([file, targets]) =>
    targets.filter((to) => (layerOf(to) ?? -1) > (layerOf(file) ?? Infinity)).map((to) => `${file} (${layerOf(file)}) -> ${to} (${layerOf(to)})`));
  t.same(upward, [], 'imports that run from a lower layer up');
});

t.test('no import circles', async (t) => {
  t.same(circles(graph), [], 'modules that import each other, directly or round a circle');
});

t.test('the checks find what they look for', async (t) => {
  const sample = new Map([
    ['rig/cycle/a.ts', ['rig/cycle/b.ts']],
    ['rig/cycle/b.ts', ['rig/cycle/c.ts']],
    ['rig/cycle/c.ts', ['rig/cycle/a.ts']],
    ['rig/cycle/d.ts', ['rig/cycle/a.ts']],
  ]);
  t.same(circles(sample), [['rig/cycle/a.ts', 'rig/cycle/b.ts', 'rig/cycle/c.ts']], 'a circle of three, without the module that only enters it');
  t.equal(layerOf('rig/results/types.ts'), 2);
  t.ok(layerOf('rig/perf/run-perf.ts')! < layerOf('rig/campaign/environment.ts')!, 'perf sits below campaigns');
  t.equal(layerOf('rig/unknown.ts'), null, 'a module outside the table has no layer');
});
