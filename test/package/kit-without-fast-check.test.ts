// `harness-augment/kit` as a user installs it, without the optional peer fast-check: the kit (and the root,
// whose built-in operators import the kit) loads, an operator can be defined and applied, and only running
// the law suite asks for fast-check, with one message that says what to install.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFastCheckMessage } from '../../src/kit/index.js';

const root = resolve('.');
let buildFolder: string;
let project: string;

const run = (cwd: string, code: string, type: 'module' | 'commonjs') =>
  spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('harness-augment/kit without fast-check', () => {
  beforeAll(async () => {
    buildFolder = await mkdtemp(join(root, 'node_modules', '.hsa-kit-build-'));
    await build({
      config: false,
      entry: { index: 'src/index.ts', 'kit/index': 'src/kit/index.ts' },
      outDir: join(buildFolder, 'dist'),
      format: ['esm', 'cjs'],
      external: ['fast-check'],
      target: 'node20',
      silent: true,
    });
    project = await mkdtemp(join(tmpdir(), 'hsa-kit-entry-'));
    const modules = join(project, 'node_modules');
    const own = join(modules, 'harness-augment');
    await mkdir(own, { recursive: true });
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    await writeFile(join(own, 'package.json'), JSON.stringify(manifest));
    await cp(join(buildFolder, 'dist'), join(own, 'dist'), { recursive: true });
    for (const name of Object.keys(manifest.dependencies)) {
      await mkdir(join(modules, name, '..'), { recursive: true });
      await symlink(join(root, 'node_modules', name), join(modules, name), 'dir');
    }
    await writeFile(join(project, 'package.json'), '{"type":"module"}');
  }, 180_000);
  afterAll(async () => {
    await rm(buildFolder, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });

  const operator = `defineOperator({ id: 'tools/noop', version: 1, dimension: 'tools', mode: 'exact',
    description: 'x', params: z.object({}), apply: (harness) => unchanged(harness) })`;

  it('import: the kit loads and defines an operator; the laws ask for fast-check', () => {
    const result = run(
      project,
      `import { z } from 'zod';
       import { defineOperator, unchanged, affectedCount, checkOperatorLaws } from 'harness-augment/kit';
       import { builtinOperators } from 'harness-augment';
       const op = ${operator};
       console.log(op.id, affectedCount(0.5, 4), builtinOperators.length > 30);
       await checkOperatorLaws(op).catch((error) => console.log('laws:', error.message));`,
      'module',
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('tools/noop 2 true');
    expect(result.stdout).toContain(`laws: ${missingFastCheckMessage}`);
  });

  it('require: the same from the CommonJS build', () => {
    const result = run(
      project,
      `const { z } = require('zod');
       const { defineOperator, unchanged, checkOperatorLaws } = require('harness-augment/kit');
       const op = ${operator};
       checkOperatorLaws(op).catch((error) => console.log(op.id, 'laws:', error.message));`,
      'commonjs',
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`tools/noop laws: ${missingFastCheckMessage}`);
  });
});
