// Exports are written beside `exports/` and moved in when complete: a crash during an export leaves no
// temporary file inside the folder trainers read, and --resume clears what an older run left there.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { PipelineExporter } from '../../src/pipeline/teacher.js';
import { createLivestreamScenario } from '../../src/scenarios/livestream/index.js';
import { projectRoot } from '../support/run-cli.js';

const registry = await builtinRegistry();

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

async function digest(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const file of await filesUnder(dir))
    result[file] = createHash('sha256')
      .update(await readFile(join(dir, file)))
      .digest('hex');
  return result;
}

const scenario = createLivestreamScenario();

function configFor(out: string) {
  return parsePipelineConfig({
    harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
    inputs: { simulate: { scenario: 'livestream', episodes: 6, seed: 'staging' } },
    augment: { policy: 'hat', variants: 1 },
    exports: ['trl', 'verl'],
    out,
  });
}

describe('export staging', () => {
  it('a crash during an export leaves no temporary file in exports/, and --resume equals a whole run', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-staging-'));
    const whole = configFor(join(root, 'whole'));
    await runPipeline(whole, buildPipelineDependencies(whole, { registry, scenario }));

    const crashed = configFor(join(root, 'crashed'));
    const dependencies = buildPipelineDependencies(crashed, { registry, scenario });
    const seen: string[] = [];
    const staged: string[] = [];
    const verl = dependencies.exporters.verl as PipelineExporter;
    // The verl export dies on its third row, after it has started writing: what is in exports/ then?
    const dying: PipelineExporter = {
      ...verl,
      async open(folder, options) {
        const sink = await verl.open(folder, options);
        let rows = 0;
        return {
          ...sink,
          async write(example) {
            await sink.write(example);
            rows++;
            seen.push(...(await filesUnder(join(crashed.out, 'exports'))));
            staged.push(...(await filesUnder(join(crashed.out, '.staging'))));
            if (rows === 3) throw new Error('killed');
          },
        };
      },
    };
    await expect(
      runPipeline(crashed, { ...dependencies, exporters: { ...dependencies.exporters, verl: dying } }),
    ).rejects.toThrow('killed');
    // The exports were being written (in the staging folder), and exports/ never held a temporary file.
    expect(staged.length).toBeGreaterThan(0);
    expect(seen.filter((file) => /partial|tmp/.test(file))).toEqual([]);

    // A stray temporary file from an older version of the tool, inside exports/.
    await mkdir(join(crashed.out, 'exports', 'trl'), { recursive: true });
    await writeFile(join(crashed.out, 'exports', 'trl', 'train.jsonl.4242.1.partial'), '{"half":');
    const manifest = await runPipeline(crashed, buildPipelineDependencies(crashed, { registry, scenario }), {
      resume: true,
    });
    expect(JSON.stringify(manifest.exports)).not.toContain('.staging');
    expect(manifest.exports.map((entry) => entry.files[0]?.path)).toEqual([
      'exports/trl/train.jsonl',
      expect.stringMatching(/^exports\/verl\//),
    ]);
    const [a, b] = [await digest(whole.out), await digest(crashed.out)];
    delete a['manifest.json'];
    delete b['manifest.json'];
    expect(b).toEqual(a);
    expect(Object.keys(b).filter((file) => /partial|tmp|\.staging/.test(file))).toEqual([]);
  });
});
