// `hsa bench generate` writes bench rows by reference with a variants sidecar (default) or inline
// (--inline-harness); `hsa bench score` gives the same scores on both, and a sidecar that lacks a row's
// harness exits 1 naming the row and the hash.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import type { BenchRow } from '../../src/bench/schema.js';
import { expectationsAsPredictions } from '../../src/bench/score.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

let root: string;
let byReference: string;
let inline: string;
let predictions: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hsa-bench-sidecar-'));
  const items = join(root, 'items.jsonl');
  const source = await readFile(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'), 'utf8');
  await writeFile(items, `${source.split('\n').slice(0, 6).join('\n')}\n`);
  const generate = (out: string, ...extra: string[]) =>
    hsa([
      'bench',
      'generate',
      '--items',
      items,
      '--harness',
      join(projectRoot, 'fixtures/livestream/harness.yaml'),
      '--variants',
      '2',
      '--seed',
      '3',
      '--out',
      out,
      ...extra,
    ]);
  byReference = join(root, 'bench.jsonl');
  inline = join(root, 'inline.jsonl');
  const first = await generate(byReference);
  expect(first.status, first.stderr).toBe(0);
  expect((await generate(inline, '--inline-harness')).status).toBe(0);
  // Right on every other row, so that the scores are not all one value.
  const rows = (await readFile(inline, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as BenchRow);
  predictions = join(root, 'predictions.jsonl');
  await writeFile(
    predictions,
    expectationsAsPredictions(rows)
      .map((prediction, index) =>
        index % 2 ? { ...prediction, output: [{ role: 'assistant', content: 'no idea' }] } : prediction,
      )
      .map((prediction) => `${JSON.stringify(prediction)}\n`)
      .join(''),
  );
}, 120_000);

describe('bench rows by reference', () => {
  it('resolve to the inline rows, at under a third of their bytes', async () => {
    let resolved = '';
    for await (const { row } of readAugmentedRows(byReference)) resolved += `${JSON.stringify(row)}\n`;
    const inlineText = await readFile(inline, 'utf8');
    expect(resolved).toBe(inlineText);
    expect((await readFile(byReference)).length * 3).toBeLessThan(Buffer.byteLength(inlineText));
  });

  it('score the same as inline rows', async () => {
    const score = async (bench: string, out: string) => {
      const run = await hsa(['bench', 'score', '--bench', bench, '--predictions', predictions, '--out', out]);
      expect(run.status, run.stderr).toBe(0);
      return readFile(out, 'utf8');
    };
    const [fromReference, fromInline] = [
      await score(byReference, join(root, 'scores-reference.json')),
      await score(inline, join(root, 'scores-inline.json')),
    ];
    expect(fromReference).toBe(fromInline);
    expect(JSON.parse(fromReference).counts.rows).toBeGreaterThan(0);
  });

  it('a sidecar without a row’s harness exits 1 naming the row and the hash', async () => {
    const sidecar = await readFile(join(root, 'bench.variants.jsonl'), 'utf8');
    const [harnessLine, ...rest] = sidecar.trimEnd().split('\n') as [string, ...string[]];
    const lacking = join(root, 'lacking.variants.jsonl');
    await writeFile(lacking, `${rest.join('\n')}\n`);
    const hash = (JSON.parse(harnessLine) as { hash: string }).hash;
    const run = await hsa([
      'bench',
      'score',
      '--bench',
      byReference,
      '--predictions',
      predictions,
      '--out',
      join(root, 'never.json'),
      '--sidecar',
      lacking,
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${byReference}:1: harness ${hash} is not in the sidecar: ${lacking}`);
  });
});
