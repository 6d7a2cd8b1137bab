// `harness-augment/scenarios` as a user installs it: the package.json's exports, the built subpath in a
// project's node_modules with the package's dependencies beside it, imported and required.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve('.');
let buildFolder: string;
let project: string;

interface Manifest {
  dependencies: Record<string, string>;
  exports: Record<string, { import: { default: string }; require: { default: string } }>;
  typesVersions: Record<string, Record<string, string[]>>;
}

const run = (code: string, type: 'module' | 'commonjs') =>
  spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('harness-augment/scenarios', () => {
  beforeAll(async () => {
    buildFolder = await mkdtemp(join(root, 'node_modules', '.hsa-scenarios-build-'));
    await build({
      config: false,
      entry: { 'scenarios/index': 'src/scenarios/index.ts' },
      outDir: join(buildFolder, 'dist'),
      format: ['esm', 'cjs'],
      shims: true, // as tsup.config.ts: import.meta.url in the CommonJS build
      target: 'node20',
      silent: true,
    });
    project = await mkdtemp(join(tmpdir(), 'hsa-scenarios-entry-'));
    const modules = join(project, 'node_modules');
    const own = join(modules, 'harness-augment');
    await mkdir(own, { recursive: true });
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
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

  it('package.json maps the subpath like ./testing and ./adapters', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.exports['./scenarios']?.import.default).toBe('./dist/scenarios/index.js');
    expect(manifest.exports['./scenarios']?.require.default).toBe('./dist/scenarios/index.cjs');
    expect(manifest.typesVersions['*']?.scenarios).toEqual(['./dist/scenarios/index.d.cts']);
  });

  it('import and require give every name of the source entry, and a replay scenario runs its plan', async () => {
    const expected = Object.keys(await import('../../src/scenarios/index.js'))
      .sort()
      .join(',');
    const imported = run(
      "const s = await import('harness-augment/scenarios'); console.log(Object.keys(s).sort().join(','))",
      'module',
    );
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe(expected);
    const required = run(
      "console.log(Object.keys(require('harness-augment/scenarios')).sort().join(','))",
      'commonjs',
    );
    expect(required.stderr).toBe('');
    expect(required.stdout.trim()).toBe(expected);
    const replay = run(
      `const { createReplayScenario, BackendsFileSchema } = await import('harness-augment/scenarios');
const scenario = createReplayScenario({ trajectories: [{ id: 'log-1', messages: [{ role: 'user', content: 'hi' }] }] });
console.log(scenario.name, scenario.defaultEpisodes({ seed: '0' }), JSON.stringify(BackendsFileSchema.parse({})));`,
      'module',
    );
    expect(replay.stderr).toBe('');
    expect(replay.stdout.trim()).toBe('replay 1 {"servers":{},"default":"recorded","tools":{}}');
  });

  it('without the bundled fixtures beside the build, the helpdesk says which file it lacks', () => {
    const result = run(
      "const { loadHelpdeskScenario } = await import('harness-augment/scenarios'); await loadHelpdeskScenario();",
      'module',
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      'the bundled helpdesk fixture (fixtures/helpdesk/harness.yaml) is not in this installation',
    );
  });
});
