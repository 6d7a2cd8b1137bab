// The SFT set by reference: on both fixtures, every export equals the one written from inline examples, byte
// for byte; the examples read back as the inline ones at a fraction of their bytes; an example whose harness
// the sidecar lacks stops the export with its place.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { readTrainingExamples } from '../../src/pipeline/example-sidecar.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { projectRoot } from '../support/run-cli.js';

/** Each export file's digest; the run's own folder (axolotl.yaml names its data file by path) as `<out>`. */
async function digests(out: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const dir = join(out, 'exports');
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    const text = file.endsWith('.yaml') ? bytes.toString('utf8').replaceAll(out, '<out>') : bytes;
    result[relative(dir, file)] = createHash('sha256').update(text).digest('hex');
  }
  return result;
}

describe.each(['livestream', 'helpdesk'])('pipeline examples by reference: %s', (fixture) => {
  it('export the same bytes as inline examples, and read back as them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-example-sidecar-'));
    const tasks = join(root, 'tasks.jsonl');
    const source = await readFile(join(projectRoot, `fixtures/${fixture}/trajectories.jsonl`), 'utf8');
    await writeFile(tasks, `${source.split('\n').slice(0, 8).join('\n')}\n`);
    const registry = await builtinRegistry();
    const configOf = (out: string) =>
      parsePipelineConfig({
        harness: join(projectRoot, `fixtures/${fixture}/harness.yaml`),
        inputs: { trajectories: tasks },
        augment: { policy: 'hat', variants: 2, includeOriginal: true },
        exports: ['trl', 'openai', 'llama-factory', 'axolotl', 'verl'],
        out: join(root, out),
      });
    const run = async (out: string, options: { inlineHarness?: boolean; resume?: boolean }) => {
      const config = configOf(out);
      return runPipeline(config, buildPipelineDependencies(config, { registry }), options);
    };
    const byReference = await run('by-reference', {});
    const inline = await run('inline', { inlineHarness: true });
    expect(byReference.counts).toEqual(inline.counts);
    expect(byReference.counts.examples).toBeGreaterThan(0);
    const [referenceFiles, inlineFiles] = [
      await digests(join(root, 'by-reference')),
      await digests(join(root, 'inline')),
    ];
    expect(Object.keys(referenceFiles).length).toBeGreaterThanOrEqual(5);
    expect(referenceFiles).toEqual(inlineFiles);

    let resolved = '';
    for await (const example of readTrainingExamples(join(root, 'by-reference', 'examples.jsonl')))
      resolved += `${JSON.stringify(example)}\n`;
    const inlineText = await readFile(join(root, 'inline', 'examples.jsonl'), 'utf8');
    expect(resolved).toBe(inlineText);
    const referenceBytes = (await readFile(join(root, 'by-reference', 'examples.jsonl'))).length;
    expect(referenceBytes * 3).toBeLessThan(Buffer.byteLength(inlineText));
    expect(byReference.files.map((file) => file.path)).toContain('variants.jsonl');
    expect(inline.files.map((file) => file.path)).not.toContain('variants.jsonl');

    // A sidecar without the first example's harness: reading (as the exports do) stops, naming the
    // example and the hash. (A resumed run refuses such a folder earlier: the sidecar is shorter than its
    // checkpoint records.)
    const sidecar = join(root, 'by-reference', 'variants.jsonl');
    const [first, ...rest] = (await readFile(sidecar, 'utf8')).trimEnd().split('\n') as [string, ...string[]];
    const lacking = join(root, 'lacking.jsonl');
    await writeFile(lacking, `${rest.join('\n')}\n`);
    const hash = (JSON.parse(first) as { hash: string }).hash;
    const error = await (async () => {
      for await (const _ of readTrainingExamples(join(root, 'by-reference', 'examples.jsonl'), {
        sidecars: [lacking],
      }));
    })().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HarnessAugmentError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${join(root, 'by-reference', 'examples.jsonl')}:1: harness ${hash} is not in the sidecar: ${lacking}`,
    );
  }, 300_000);
});
