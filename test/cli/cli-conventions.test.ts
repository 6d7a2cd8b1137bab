// The CLI conventions every command shares: -o/--out, --json for results and errors, bounded numbers, and
// the pipeline's concurrency and exports set from the command line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PipelineManifest } from '../../src/pipeline/run-pipeline.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-conventions-'));
const config = join(folder, 'pipeline.yaml');
writeFileSync(
  config,
  [
    `harness: ${join(projectRoot, 'fixtures/livestream/harness.yaml')}`,
    'inputs: { simulate: { scenario: livestream, episodes: 4, seed: conventions } }',
    'augment: { policy: hat, variants: 1 }',
    'exports: [{ trl: { argumentsEncoding: string } }]',
    `out: ${join(folder, 'unused')}`,
    '',
  ].join('\n'),
);

describe('CLI conventions', () => {
  it('pipeline run takes --exports and --concurrency, and reports as JSON', async () => {
    const out = join(folder, 'run');
    const run = await hsa([
      'pipeline',
      'run',
      config,
      '--exports',
      'trl,openai',
      '--concurrency',
      '2',
      '-o',
      out,
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const { manifest } = JSON.parse(run.stdout) as { manifest: PipelineManifest };
    expect(manifest.exports.map((entry) => entry.format)).toEqual(['trl', 'openai']);
    expect(manifest.files[0]?.path).toBe('examples.jsonl');
  });

  it('refuses an unknown export format, an out-of-range concurrency and thread count with exit 2', async () => {
    const format = await hsa(['pipeline', 'run', config, '--exports', 'trl,parquet']);
    expect(format.status).toBe(2);
    expect(format.stderr).toMatch(/--exports: unknown format "parquet"; one of trl, axolotl/);
    const concurrency = await hsa(['pipeline', 'run', config, '--concurrency', '100000']);
    expect(concurrency.status).toBe(2);
    expect(concurrency.stderr.trim()).toBe('hsa: --concurrency must be at most 256, got 100000');
    const threads = await hsa(['pipeline', 'run', config, '--threads', '0']);
    expect(threads.status).toBe(2);
    expect(threads.stderr.trim()).toBe('hsa: --threads must be at least 1, got 0');
  });

  it('one spelling for the output: -o and --out on every command that writes', async () => {
    for (const args of [['schema'], ['export', 'openai-tools', 'fixtures/livestream/harness.yaml']]) {
      const out = join(folder, `${args[0]}.json`);
      const short = await hsa([...args, '-o', out]);
      const long = await hsa([...args, '--out', out, '--json']);
      expect(short.status).toBe(0);
      expect(JSON.parse(long.stdout)).toEqual({ out });
    }
  });
});
