// The built-in operators are written against the surface a third-party author gets: every file under
// perturbations/<dimension>/ imports only the kit (src/kit/index.ts, published as `harness-augment/kit`),
// npm packages, and files of its own dimension folder. perturbations/index.ts lists the dimensions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';

const kitIndex = join(projectRoot, 'src/kit/index.ts');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((entry) => {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.ts$/.test(entry) ? [path] : [];
    });
}

/** Every module specifier of a file: static imports and re-exports, `import type`, dynamic `import()`. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(
      /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
    ),
  ].map((match) => (match[1] ?? match[2]) as string);
}

/** Why an import of a file under perturbations/ breaks the rule, or undefined when it keeps it. */
function operatorImportViolation(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) {
    // npm packages (zod …) are fine; the library itself only through the kit.
    return /^harness-augment(\/|$)/.test(specifier) && specifier !== 'harness-augment/kit'
      ? 'imports the library outside the kit'
      : undefined;
  }
  const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
  if (target === kitIndex) return undefined;
  const perturbations = join(projectRoot, 'perturbations');
  const own = relative(perturbations, file).split(sep);
  if (own.length === 1) {
    // perturbations/index.ts: the dimension indexes.
    return /^\.\/[a-z-]+\/index\.js$/.test(specifier)
      ? undefined
      : 'the top index imports only dimension indexes';
  }
  const folder = join(perturbations, own[0] as string);
  if (target.startsWith(`${folder}${sep}`)) return undefined;
  return `imports ${relative(projectRoot, target)}: only src/kit/index.ts, npm packages and files of perturbations/${own[0]}/ are allowed`;
}

describe('built-in operators use only the kit', () => {
  const files = sourceFiles(join(projectRoot, 'perturbations'));

  it('finds the operators', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it('every file under perturbations/ imports only the kit, packages and its own dimension folder', () => {
    const violations = files.flatMap((file) =>
      specifiersOf(file).flatMap((specifier) => {
        const why = operatorImportViolation(file, specifier);
        return why ? [`${relative(projectRoot, file)} → ${specifier}: ${why}`] : [];
      }),
    );
    expect(violations).toEqual([]);
  });

  it('the rule refuses what it should', () => {
    const file = join(projectRoot, 'perturbations/tools/rename.ts');
    expect(operatorImportViolation(file, '../../src/augment/operator.js')).toMatch(/only src\/kit/);
    expect(operatorImportViolation(file, '../hooks/_hook-facts.js')).toMatch(/perturbations\/tools/);
    expect(operatorImportViolation(file, 'harness-augment')).toMatch(/outside the kit/);
    expect(operatorImportViolation(file, '../../src/kit/index.js')).toBeUndefined();
    expect(operatorImportViolation(file, './index.js')).toBeUndefined();
    expect(operatorImportViolation(file, 'zod')).toBeUndefined();
  });

  it('the kit and its helpers import nothing from perturbations/', () => {
    const violations = sourceFiles(join(projectRoot, 'src/kit')).flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => specifier.includes('perturbations'))
        .map((specifier) => `${relative(projectRoot, file)} → ${specifier}`),
    );
    expect(violations).toEqual([]);
  });

  it('no private-machinery module is left beside the operators', () => {
    expect(files.map((file) => relative(projectRoot, file))).not.toContain(
      'perturbations/tools/internals.ts',
    );
  });
});
