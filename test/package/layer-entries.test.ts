// `harness-augment/bench`, `/runtime`, `/pipeline` and `/demo` as a user installs them: the package.json's
// exports, the built subpaths in a project's node_modules with only the package's dependencies beside them,
// imported and required, each giving every name its source entry lists and working on a small input.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve('.');
const layers = ['bench', 'runtime', 'pipeline', 'demo'] as const;
let buildFolder: string;
let project: string;

const run = (code: string, type: 'module' | 'commonjs') =>
  spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('the layer subpaths, installed', () => {
  beforeAll(async () => {
    buildFolder = await mkdtemp(join(root, 'node_modules', '.hsa-layers-build-'));
    await build({
      config: false,
      entry: Object.fromEntries(layers.map((layer) => [`${layer}/index`, `src/${layer}/index.ts`])),
      outDir: join(buildFolder, 'dist'),
      format: ['esm', 'cjs'],
      external: ['fast-check'],
      shims: true, // as tsup.config.ts: import.meta.url in the CommonJS build
      target: 'node20',
      silent: true,
    });
    project = await mkdtemp(join(tmpdir(), 'hsa-layer-entries-'));
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
  }, 300_000);
  afterAll(async () => {
    await rm(buildFolder, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });

  it.each(layers)(
    'harness-augment/%s: import and require give every name of the source entry',
    async (layer) => {
      const expected = Object.keys(await import(join(root, `src/${layer}/index.ts`)))
        .sort()
        .join(',');
      expect(expected.split(',').length).toBeGreaterThan(5);
      const imported = run(
        `const entry = await import('harness-augment/${layer}'); console.log(Object.keys(entry).sort().join(','))`,
        'module',
      );
      expect(imported.stderr).toBe('');
      expect(imported.stdout.trim()).toBe(expected);
      const required = run(
        `console.log(Object.keys(require('harness-augment/${layer}')).sort().join(','))`,
        'commonjs',
      );
      expect(required.stderr).toBe('');
      expect(required.stdout.trim()).toBe(expected);
    },
  );

  it('the runtime runs tools from functions, and the pipeline parses a config, from the built subpaths', () => {
    const result = run(
      `const { toolsFromFunctions } = await import('harness-augment/runtime');
const { parsePipelineConfig } = await import('harness-augment/pipeline');
const { criteria } = await import('harness-augment/bench');
const tools = toolsFromFunctions({ add: ({ a, b }) => a + b });
const outcome = await tools.call({ id: 'call-1', name: 'add', arguments: { a: 2, b: 3 } }, {});
const config = parsePipelineConfig({ harness: 'h.yaml', inputs: { trajectories: 't.jsonl' } });
console.log(outcome.content, config.augment.policy, criteria.at(-1));`,
      'module',
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('5 hat overall');
  });
});
