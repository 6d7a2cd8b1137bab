// Every name an entry point exports — its runtime keys and its types, read with the TypeScript compiler — has
// an entry with an example in docs/api/<entry>.md, and the pages are what scripts/api-reference.ts writes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { apiEntries, apiEntriesOf, createApiProgram, renderApiPage } from '../../scripts/api-reference.js';
import { projectRoot } from '../support/run-cli.js';

const program = createApiProgram();
const checker = program.getTypeChecker();

/** The `### \`name\`` entries of a page that are followed by a non-empty ```ts block. */
function documented(page: string): Set<string> {
  const names = new Set<string>();
  for (const match of page.matchAll(/^### `([^`]+)`\n(?:(?!^### )[\s\S])*?^```ts\n(?!```)/gm))
    names.add(match[1]!);
  return names;
}

describe.each(apiEntries)('$specifier', (entry) => {
  const page = readFileSync(join(projectRoot, entry.page), 'utf8');
  const source = program.getSourceFile(join(projectRoot, entry.source))!;
  const exported = checker
    .getExportsOfModule(checker.getSymbolAtLocation(source)!)
    .map((symbol) => symbol.name);

  it('every exported name and type has an entry with an example', async () => {
    const runtime = Object.keys(await import(join(projectRoot, entry.source)));
    expect(exported.length).toBeGreaterThan(10);
    // The compiler's list holds every runtime key: types come on top of the values.
    expect(runtime.filter((name) => !exported.includes(name))).toEqual([]);
    const entries = documented(page);
    expect(exported.filter((name) => !entries.has(name)).sort()).toEqual([]);
  });

  it('the page is what scripts/api-reference.ts writes (run it after changing an export or its comment)', () => {
    expect(page).toBe(renderApiPage(entry.specifier, apiEntriesOf(program, entry.source)));
  });
});

// The kernel at the root, and the layers that became subpaths with it: every name they export, types
// included, says in a sentence what it is.
const documentedEntries = [
  'src/index.ts',
  'src/bench/index.ts',
  'src/runtime/index.ts',
  'src/pipeline/index.ts',
  'src/demo/index.ts',
];

describe.each(documentedEntries)('%s', (source) => {
  it('every exported name has a doc comment', () => {
    const undocumented = apiEntriesOf(program, source)
      .filter((entry) => entry.summary === '')
      .map((entry) => `${entry.name} (${entry.module})`);
    expect(undocumented).toEqual([]);
  });
});

describe('an exported value without an example', () => {
  const folder = mkdtempSync(join(projectRoot, 'node_modules', '.hsa-api-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  // No library files: the module declares what it uses, and the program is made in a moment.
  const tinyOptions = { noLib: true, types: [] };

  it('fails the reference, naming it and its module', () => {
    const file = join(folder, 'entry.ts');
    writeFileSync(
      file,
      '/**\n * Documented.\n *\n * @example\n * one // 1\n */\nexport const one = 1;\n/** No example. */\nexport const two = 2;\nexport interface Shape { size: number }\n',
    );
    const tiny = ts.createProgram([file], tinyOptions);
    const where = relative(projectRoot, file);
    expect(() => apiEntriesOf(tiny, where)).toThrow(`1 exported value(s) have no @example: two (${where})`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('/** No example. */', '/** @example two // 2 */'));
    const fixed = ts.createProgram([file], tinyOptions);
    const entries = apiEntriesOf(fixed, where);
    expect(entries.map((item) => [item.name, item.kind, item.example])).toEqual([
      ['Shape', 'interface', 'interface Shape { size: number }'],
      ['one', 'constant', 'one // 1'],
      ['two', 'constant', 'two // 2'],
    ]);
    expect([...documented(renderApiPage('tiny', entries))].sort()).toEqual(['Shape', 'one', 'two']);
  });
});
