// The package's entry points are one list, written five times: package.json's `exports` and `typesVersions`,
// tsup.config.ts's entries, tsconfig.json's `paths` (how examples and tests import the package by name) and
// the API reference's pages. Each entry is curated by hand (explicit names, no `export *`), and the root holds
// the kernel only: the harness, trajectories and augmentation, never a layer above them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { apiEntries } from '../../scripts/api-reference.js';
import tsupConfig from '../../tsup.config.js';
import { projectRoot } from '../support/run-cli.js';

interface Manifest {
  exports: Record<
    string,
    string | { import: { types: string; default: string }; require: { types: string } }
  >;
  typesVersions: Record<string, Record<string, string[]>>;
}

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as Manifest;
const tsconfig = ts.parseConfigFileTextToJson(
  'tsconfig.json',
  readFileSync(join(projectRoot, 'tsconfig.json'), 'utf8'),
).config as { compilerOptions: { paths: Record<string, string[]> } };

/** `harness-augment/bench` → `bench`; the root → ``. */
const subpathOf = (specifier: string) => specifier.slice('harness-augment/'.length);
const subpaths = apiEntries
  .filter((entry) => entry.specifier !== 'harness-augment')
  .map((entry) => subpathOf(entry.specifier));

/** The specifiers a module imports or re-exports from. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(
    (match) => match[1] as string,
  );
}

describe('entry points', () => {
  it('the API reference, package.json, tsup and tsconfig name the same entries', () => {
    expect(subpaths.length).toBeGreaterThanOrEqual(8);
    const exported = Object.keys(manifest.exports).filter((key) => key !== './package.json');
    expect(exported.sort()).toEqual(['.', ...subpaths.map((subpath) => `./${subpath}`)].sort());
    expect(Object.keys(manifest.typesVersions['*'] ?? {}).sort()).toEqual([...subpaths].sort());
    expect(Object.keys(tsconfig.compilerOptions.paths).sort()).toEqual(
      apiEntries.map((entry) => entry.specifier).sort(),
    );
    const builds = (Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]) as {
      entry: Record<string, string>;
    }[];
    const library = builds.find((build) => 'index' in build.entry);
    expect(library?.entry).toEqual(
      Object.fromEntries(
        apiEntries.map((entry) => [
          entry.specifier === 'harness-augment' ? 'index' : `${subpathOf(entry.specifier)}/index`,
          entry.source,
        ]),
      ),
    );
  });

  it.each(apiEntries)(
    '$specifier: built where package.json points, resolved to its source by tsconfig',
    (entry) => {
      const key = entry.specifier === 'harness-augment' ? '.' : `./${subpathOf(entry.specifier)}`;
      const folder = entry.specifier === 'harness-augment' ? 'dist' : `dist/${subpathOf(entry.specifier)}`;
      const target = manifest.exports[key];
      expect(typeof target).toBe('object');
      const conditions = target as Exclude<typeof target, string | undefined>;
      expect(conditions.import.types).toBe(`./${folder}/index.d.ts`);
      expect(conditions.require.types).toBe(`./${folder}/index.d.cts`);
      if (entry.specifier !== 'harness-augment')
        expect(manifest.typesVersions['*']?.[subpathOf(entry.specifier)]).toEqual([
          `./${folder}/index.d.cts`,
        ]);
      expect(tsconfig.compilerOptions.paths[entry.specifier]).toEqual([`./${entry.source}`]);
    },
  );

  it.each(apiEntries)('$specifier: curated by hand, no `export *`', (entry) => {
    const text = readFileSync(join(projectRoot, entry.source), 'utf8');
    expect(text.match(/^\s*export\s+\*.*$/gm) ?? []).toEqual([]);
  });

  it('the root exports the kernel only: the harness, trajectories, augmentation and the operators', () => {
    const text = readFileSync(join(projectRoot, 'src/index.ts'), 'utf8');
    const outside = specifiersOf(text).filter(
      (specifier) =>
        !/^\.\/(harness|trajectory|augment)\//.test(specifier) &&
        specifier !== '../perturbations/index.js' &&
        specifier !== './version.js',
    );
    expect(specifiersOf(text).length).toBeGreaterThan(20);
    expect(outside).toEqual([]);
  });
});
