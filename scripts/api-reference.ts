// Writes docs/api/<entry>.md, the reference of every name the package's entry points export, from the
// source's own doc comments: the summary, and the `@example` of every function, class and constant (a value
// without one is an error); a type without an `@example` shows its declaration, which is its shape. The
// test test/package/api-reference.test.ts fails when an exported name has no entry or the pages are stale.
// Run: npx tsx scripts/api-reference.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The package's entry points: the import specifier, the source file, the page. */
export const apiEntries = [
  { specifier: 'harness-augment', source: 'src/index.ts', page: 'docs/api/index.md' },
  { specifier: 'harness-augment/testing', source: 'src/testing/index.ts', page: 'docs/api/testing.md' },
  { specifier: 'harness-augment/kit', source: 'src/kit/index.ts', page: 'docs/api/kit.md' },
  { specifier: 'harness-augment/bench', source: 'src/bench/index.ts', page: 'docs/api/bench.md' },
  { specifier: 'harness-augment/runtime', source: 'src/runtime/index.ts', page: 'docs/api/runtime.md' },
  { specifier: 'harness-augment/scenarios', source: 'src/scenarios/index.ts', page: 'docs/api/scenarios.md' },
  { specifier: 'harness-augment/pipeline', source: 'src/pipeline/index.ts', page: 'docs/api/pipeline.md' },
  { specifier: 'harness-augment/adapters', source: 'src/adapters/index.ts', page: 'docs/api/adapters.md' },
  { specifier: 'harness-augment/demo', source: 'src/demo/index.ts', page: 'docs/api/demo.md' },
] as const;

export interface ApiEntry {
  name: string;
  kind: 'function' | 'class' | 'constant' | 'interface' | 'type';
  /** The module that declares it, relative to the repository. */
  module: string;
  summary: string;
  /** The `@example`, or the declaration of a type that has none. */
  example: string;
}

function kindOf(symbol: ts.Symbol): ApiEntry['kind'] {
  if (symbol.flags & ts.SymbolFlags.Class) return 'class';
  if (symbol.flags & ts.SymbolFlags.Function) return 'function';
  if (symbol.flags & ts.SymbolFlags.Value) {
    const declaration = symbol.valueDeclaration;
    const initializer =
      declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    return initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))
      ? 'function'
      : 'constant';
  }
  return symbol.flags & ts.SymbolFlags.Interface ? 'interface' : 'type';
}

/** A declaration as the source writes it (its members' comments kept), without its own doc comment. */
function declarationText(declaration: ts.Declaration): string {
  const source = declaration.getSourceFile();
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return source.text.slice(node.getStart(source, false), node.getEnd()).replace(/^export (declare )?/, '');
}

function exampleOf(symbol: ts.Symbol, checker: ts.TypeChecker): string | undefined {
  const tags = symbol.getJsDocTags(checker).filter((tag) => tag.name === 'example');
  if (tags.length === 0) return undefined;
  return tags.map((tag) => ts.displayPartsToString(tag.text).replace(/^\n+|\s+$/g, '')).join('\n\n');
}

/** The entries of one entry point's exports, sorted by name; throws listing the values without an example. */
export function apiEntriesOf(program: ts.Program, source: string): ApiEntry[] {
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(resolve(root, source));
  const moduleSymbol = file && checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`${source}: not a module`);
  const missing: string[] = [];
  const entries = checker.getExportsOfModule(moduleSymbol).map((exported): ApiEntry => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration) throw new Error(`${source}: ${exported.name} has no declaration`);
    const kind = kindOf(symbol);
    const summary =
      ts.displayPartsToString(symbol.getDocumentationComment(checker)).split(/\n\s*\n/)[0] ?? '';
    const example = exampleOf(symbol, checker);
    if (example === undefined && (kind === 'function' || kind === 'class' || kind === 'constant'))
      missing.push(`${exported.name} (${relative(root, declaration.getSourceFile().fileName)})`);
    return {
      name: exported.name,
      kind,
      module: relative(root, declaration.getSourceFile().fileName).split('\\').join('/'),
      summary: summary.replace(/\s*\n\s*/g, ' ').trim(),
      example: example ?? declarationText(declaration),
    };
  });
  if (missing.length > 0)
    throw new Error(`${source}: ${missing.length} exported value(s) have no @example: ${missing.join(', ')}`);
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function createApiProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json: cannot read');
  return ts.createProgram(
    apiEntries.map((entry) => join(root, entry.source)),
    config.options,
  );
}

const kindTitle: Record<ApiEntry['kind'], string> = {
  function: 'function',
  class: 'class',
  constant: 'constant',
  interface: 'interface',
  type: 'type',
};

/** The page of one entry point. */
export function renderApiPage(specifier: string, entries: readonly ApiEntry[]): string {
  const lines = [
    `# \`${specifier}\``,
    '',
    `<!-- Generated by scripts/api-reference.ts from the doc comments in the source; do not edit. -->`,
    '',
    `Every name \`${specifier}\` exports (${entries.length}), by name. [All entry points](README.md).`,
    '',
  ];
  for (const entry of entries) {
    lines.push(`### \`${entry.name}\``, '');
    lines.push(
      `${kindTitle[entry.kind]} · [${entry.module}](../../${entry.module})${entry.summary ? ` — ${entry.summary}` : ''}`,
    );
    lines.push('', '```ts', entry.example, '```', '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const program = createApiProgram();
  const stale: string[] = [];
  const failures: string[] = [];
  for (const entry of apiEntries) {
    let entries: ApiEntry[];
    try {
      entries = apiEntriesOf(program, entry.source);
    } catch (error) {
      failures.push((error as Error).message);
      continue;
    }
    const page = renderApiPage(entry.specifier, entries);
    const path = join(root, entry.page);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {}
    if (current === page) continue;
    if (check) stale.push(entry.page);
    else writeFileSync(path, page);
  }
  for (const failure of failures) console.error(failure);
  if (failures.length > 0) process.exitCode = 1;
  if (stale.length > 0) {
    console.error(`stale: ${stale.join(', ')} (run npx tsx scripts/api-reference.ts)`);
    process.exitCode = 1;
  }
}
