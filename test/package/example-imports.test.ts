// Every example under examples/ (subfolders included) is written as a user of the installed package writes it:
// it imports the package by name (`harness-augment` or one of the subpaths package.json exports), Node's
// built-ins, packages the manifest names, or a file of its own beside it — never a path into src/, the
// operators or the fixtures' code. tsconfig.json resolves the package names to this repository's source.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';

interface Manifest {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as Manifest;
const examples = join(projectRoot, 'examples');

/** The import specifiers of a module's text: static imports, re-exports and dynamic `import('…')`. */
function specifiersOf(text: string): string[] {
  return [
    ...text.matchAll(
      /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
    ),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
  ].map((match) => (match[1] ?? match[2]) as string);
}

/** The package a bare specifier names (`@scope/name/x` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Why an example's import is not one a user of the package could write, or undefined when it is. */
function importProblem(file: string, specifier: string, packageJson: Manifest): string | undefined {
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(file), specifier);
    return target.startsWith(examples + sep)
      ? undefined
      : 'a path outside examples/ (import the package by name)';
  }
  if (specifier === 'harness-augment' || specifier.startsWith('harness-augment/')) {
    const subpath = `.${specifier.slice('harness-augment'.length)}`;
    return subpath in packageJson.exports ? undefined : 'a subpath package.json does not export';
  }
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  const name = packageOf(specifier);
  const declared = {
    ...packageJson.dependencies,
    ...packageJson.devDependencies,
    ...packageJson.peerDependencies,
  };
  return name in declared ? undefined : 'a package package.json does not name';
}

function problemsOf(file: string, text: string, packageJson: Manifest = manifest): string[] {
  return specifiersOf(text).flatMap((specifier) => {
    const problem = importProblem(file, specifier, packageJson);
    return problem ? [`${relative(projectRoot, file)}: '${specifier}': ${problem}`] : [];
  });
}

function exampleModules(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(m|c)?[jt]s$/.test(name))
    .map((name) => join(folder, name))
    .sort();
}

describe('examples import the package by name', () => {
  const files = exampleModules(examples);

  it('reads the examples, those in subfolders too', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.some((file) => relative(examples, file).includes(sep))).toBe(true);
  });

  it('no example imports a path outside examples/ or a name the package does not export', () => {
    const problems = files.flatMap((file) => problemsOf(file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('every example imports the package (none runs on relative paths alone)', () => {
    const packageFree = files.filter(
      (file) =>
        !specifiersOf(readFileSync(file, 'utf8')).some((specifier) =>
          /^harness-augment(\/|$)/.test(specifier),
        ),
    );
    expect(packageFree.map((file) => relative(projectRoot, file))).toEqual([]);
  });

  it('names each kind of import it refuses', () => {
    const file = join(examples, 'nested', 'example.ts');
    const text = [
      "import { augment } from 'harness-augment';",
      "import { simulate } from 'harness-augment/runtime';",
      "import { parseHarness } from '../../src/index.js';",
      "import * as tools from '../../fixtures/helpdesk/tools.js';",
      "export { x } from '../../perturbations/index.js';",
      "const late = await import('../../src/bench/index.js');",
      "import { helper } from '../shared.js';",
      "import { z } from 'zod';",
      "import { readFile } from 'node:fs/promises';",
      "import { internal } from 'harness-augment/src/internal';",
      "import leftpad from 'left-pad';",
    ].join('\n');
    expect(problemsOf(file, text).map((line) => line.replace(/^[^:]+: /, ''))).toEqual([
      "'../../src/index.js': a path outside examples/ (import the package by name)",
      "'../../fixtures/helpdesk/tools.js': a path outside examples/ (import the package by name)",
      "'../../perturbations/index.js': a path outside examples/ (import the package by name)",
      "'../../src/bench/index.js': a path outside examples/ (import the package by name)",
      "'harness-augment/src/internal': a subpath package.json does not export",
      "'left-pad': a package package.json does not name",
    ]);
  });
});
