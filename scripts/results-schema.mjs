#!/usr/bin/env node
// The results format as JSON Schema (draft-07), generated from the TypeScript types the rig writes
// it with (rig/results/types.ts), so that what is published is the code's own account of the
// format and not a second description kept by hand. Two schemas: results.json (ResultsSummary)
// and one line of cycles.jsonl (CycleRecord), each named for the results version the types carry.
//   node scripts/results-schema.mjs   writes them into docs/schema/ (make schema)
// test/results/results-schema.test.ts generates them again and fails when the committed files
// differ. A script, not a module of rig/: the generator is a devDependency, which the CLI must
// never load.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_DIR = join(ROOT, 'docs', 'schema');

const ROOTS = [
  { type: 'ResultsSummary', name: 'results', title: 'results.json' },
  { type: 'CycleRecord', name: 'cycle', title: 'cycle record' },
];

/**
 * The schemas as their files' names and text, from the types as they are now.
 * @returns {{ file: string, text: string }[]}
 */
export function resultsSchemas() {
  const generator = createGenerator({
    path: join(ROOT, 'rig', 'results', 'types.ts'),
    tsconfig: join(ROOT, 'tsconfig.json'),
    // tsc checks these types in every build; the generator's own check would take seconds more
    skipTypeCheck: true,
    // the root type's properties at the top, where $id and title apply (beside a $ref a draft-07
    // validator ignores them)
    topRef: false,
    // a reader keeps fields it does not know: within a version the format only gains optional
    // fields, and a file a newer rig wrote must still pass an older copy of the schema
    additionalProperties: true,
  });
  const schemas = ROOTS.map((r) => ({ ...r, schema: generator.createSchema(r.type) }));
  // the version's single source is RESULTS_VERSION, which the summary's `version` holds
  const version = schemas[0].schema.properties.version.const;
  if (!Number.isInteger(version)) throw new Error(`ResultsSummary.version is not one number (${JSON.stringify(schemas[0].schema.properties.version)})`);
  return schemas.map(({ name, title, schema }) => {
    const { $schema, ...rest } = schema;
    const named = {
      $schema,
      $id: `urn:powercut-rig:schema:${name}-v${version}`,
      title: `powercut-rig ${title} v${version}`,
      ...rest,
    };
    return { file: `${name}-v${version}.schema.json`, text: `${JSON.stringify(named, null, 2)}\n` };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  mkdirSync(SCHEMA_DIR, { recursive: true });
  for (const { file, text } of resultsSchemas()) {
    writeFileSync(join(SCHEMA_DIR, file), text);
    console.log(`wrote docs/schema/${file} (${text.length} bytes)`);
  }
  console.log(`in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
