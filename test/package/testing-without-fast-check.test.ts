import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFastCheck, writeTestingEntries } from '../../scripts/write-testing-entry.js';

// `harness-augment/testing` as a user installs it: the built subpath inside a project's node_modules, with
// the package's dependencies beside it, with and without the optional peer fast-check.
const root = resolve('.');
let buildFolder: string;
let project: string;

async function makeProject(withFastCheck: boolean): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'hsa-testing-entry-'));
  const modules = join(folder, 'node_modules');
  const own = join(modules, 'harness-augment');
  await mkdir(own, { recursive: true });
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await writeFile(join(own, 'package.json'), JSON.stringify(manifest));
  await cp(join(buildFolder, 'dist'), join(own, 'dist'), { recursive: true });
  const links = [...Object.keys(manifest.dependencies), ...(withFastCheck ? ['fast-check'] : [])];
  for (const name of links) {
    await mkdir(join(modules, name, '..'), { recursive: true });
    await symlink(join(root, 'node_modules', name), join(modules, name), 'dir');
  }
  await writeFile(join(folder, 'package.json'), '{"type":"module"}');
  return folder;
}

const run = (cwd: string, code: string, type: 'module' | 'commonjs') =>
  spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('harness-augment/testing and its optional peer fast-check', () => {
  beforeAll(async () => {
    // Built inside the repository so that writing the entries can import the module (fast-check resolves).
    buildFolder = await mkdtemp(join(root, 'node_modules', '.hsa-test-build-'));
    await build({
      config: false,
      entry: { 'testing/index': 'src/testing/index.ts' },
      outDir: join(buildFolder, 'dist'),
      format: ['esm', 'cjs'],
      external: ['fast-check'],
      target: 'node20',
      silent: true,
    });
    await writeTestingEntries(join(buildFolder, 'dist'));
    project = await makeProject(false);
  }, 120_000);
  afterAll(async () => {
    await rm(buildFolder, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });

  it('import and require without fast-check fail with one message that says what to install', () => {
    const imported = run(project, "await import('harness-augment/testing')", 'module');
    expect(imported.status).not.toBe(0);
    expect(imported.stderr).toContain(missingFastCheck);
    const required = run(project, "require('harness-augment/testing')", 'commonjs');
    expect(required.status).not.toBe(0);
    expect(required.stderr).toContain(missingFastCheck);
  });

  it('with fast-check installed, both entries export the whole subpath', async () => {
    const complete = await makeProject(true);
    try {
      const imported = run(
        complete,
        "const t = await import('harness-augment/testing'); console.log(Object.keys(t).sort().join(','))",
        'module',
      );
      expect(imported.stderr).toBe('');
      const required = run(
        complete,
        "console.log(Object.keys(require('harness-augment/testing')).sort().join(','))",
        'commonjs',
      );
      expect(required.stderr).toBe('');
      const expected = Object.keys(await import('../../src/testing/index.js'))
        .sort()
        .join(',');
      expect(imported.stdout.trim()).toBe(expected);
      expect(required.stdout.trim()).toBe(expected);
    } finally {
      await rm(complete, { recursive: true, force: true });
    }
  });
});
