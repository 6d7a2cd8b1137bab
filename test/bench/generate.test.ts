// generateBench and `hsa bench generate` on the live-stream items: every row certified, expectations moved
// into each variant's vocabulary, holdout splits, determinism, and the CLI end to end.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/augment/plan.js';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import { type BenchReject, type GenerateBenchOptions, generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import { type BenchItem, type BenchRow, BenchRowSchema } from '../../src/bench/schema.js';
import { policyFromOptions } from '../../src/cli/operators-registry.js';
import { offeredTools } from '../../src/harness/offered-tools.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { Harness } from '../../src/harness/schema.js';
import { invertOutput } from '../../src/trajectory/relabel.js';
import { projectRoot, runCli } from '../support/run-cli.js';

const harnessFile = join(projectRoot, 'fixtures/livestream/harness.yaml');
const itemsFile = join(projectRoot, 'fixtures/livestream/bench/items.jsonl');
let harness: Harness;
let plan: Plan;
let items: BenchItem[];
let rows: BenchRow[];
let rejects: BenchReject[];

async function collect(input: BenchItem[], options: Partial<GenerateBenchOptions> = {}) {
  const out: BenchRow[] = [];
  const rejected: BenchReject[] = [];
  for await (const row of generateBench(harness, input, {
    plan,
    variants: 5,
    seed: 42,
    onReject: (reject) => rejected.push(reject),
    ...options,
  }))
    out.push(row);
  return { rows: out, rejects: rejected };
}

/** Every key of `value` is a property of `schema`, recursively into nested objects. */
function keysInSchema(value: Record<string, unknown>, schema: unknown): boolean {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  return Object.entries(value).every(
    ([key, child]) =>
      Object.hasOwn(properties, key) &&
      (child === null ||
        typeof child !== 'object' ||
        Array.isArray(child) ||
        keysInSchema(child as Record<string, unknown>, properties[key])),
  );
}

beforeAll(async () => {
  harness = await loadHarnessFile(harnessFile);
  plan = (await policyFromOptions('hat', undefined)).plan;
  items = [];
  for await (const record of readBenchItems(itemsFile)) if ('item' in record) items.push(record.item);
  ({ rows, rejects } = await collect(items));
  // A guard against a hang, not a speed check: the set takes a minute of CPU, more on a busy machine.
}, 300_000);

describe('generateBench on the live-stream items × 5 variants (hat)', () => {
  it('certifies every row: 6 rows per item, variant 0 first and the base harness', () => {
    expect(rejects).toEqual([]);
    expect(rows).toHaveLength(items.length * 6);
    for (const [index, row] of rows.entries()) {
      const item = items[Math.floor(index / 6)] as BenchItem;
      expect(BenchRowSchema.safeParse(row).success).toBe(true);
      expect(row.itemId).toBe(item.id);
      expect(row.variantIndex).toBe(index % 6);
      expect(row.id).toBe(`${item.id}/${index % 6}`);
      expect(row.certificate.certified).toBe(true);
      expect(row.split).toBe('test');
    }
    const base = rows.filter((row) => row.variantIndex === 0);
    expect(
      base.every(
        (row) => row.harness === base[0]?.harness || JSON.stringify(row.harness) === JSON.stringify(harness),
      ),
    ).toBe(true);
    expect(new Set(base.map((row) => row.variantId)).size).toBe(1);
    expect(
      base.every(
        (row) =>
          row.relabel.steps.length === 0 &&
          JSON.stringify(row.expect) === JSON.stringify(items.find((item) => item.id === row.itemId)?.expect),
      ),
    ).toBe(true);
    // The perturbed variants really differ from the base harness.
    const perturbed = rows.filter((row) => row.variantIndex > 0);
    expect(
      perturbed.filter((row) => row.certificate.variantHash !== row.certificate.baseHash).length,
    ).toBeGreaterThan(perturbed.length * 0.9);
  });

  it('gives the model the variant: its rendered system prompt, the user message and its tools', () => {
    for (const row of rows.slice(0, 60)) {
      const item = items.find((candidate) => candidate.id === row.itemId) as BenchItem;
      expect(row.input.messages[0]).toEqual({
        role: 'system',
        content: renderSystemPrompt(row.harness, item.context),
      });
      expect(row.input.messages.slice(1)).toEqual(item.input);
      expect(row.input.tools.map((tool) => tool.function.name)).toEqual(
        offeredTools(row.harness).map((tool) => tool.name),
      );
    }
  });

  it('rewrites the expectations into each variant vocabulary', () => {
    let renamedTools = 0;
    let movedArguments = 0;
    let renamedSkills = 0;
    for (const row of rows) {
      const item = items.find((candidate) => candidate.id === row.itemId) as BenchItem;
      const tools = new Map(row.harness.tools.items.map((tool) => [tool.name, tool]));
      const skills = new Set(row.harness.skills.items.map((skill) => skill.id));
      expect(row.expect.toolCalls).toHaveLength(item.expect.toolCalls.length);
      for (const [index, call] of row.expect.toolCalls.entries()) {
        const tool = tools.get(call.name);
        expect(tool, `${row.id}: ${call.name}`).toBeDefined();
        expect(
          keysInSchema(call.arguments, tool?.parameters),
          `${row.id}: ${JSON.stringify(call.arguments)}`,
        ).toBe(true);
        const original = item.expect.toolCalls[index];
        if (call.name !== original?.name) renamedTools++;
        if (JSON.stringify(call.arguments) !== JSON.stringify(original?.arguments)) movedArguments++;
      }
      for (const skill of row.expect.skills) expect(skills.has(skill), `${row.id}: ${skill}`).toBe(true);
      if (row.expect.skills.join() !== item.expect.skills.join()) renamedSkills++;
      expect(row.expect.facts).toEqual(item.expect.facts);
      expect(row.expect.forbidden).toEqual(item.expect.forbidden);
    }
    expect(renamedTools).toBeGreaterThan(0);
    expect(movedArguments).toBeGreaterThan(0);
    expect(renamedSkills).toBeGreaterThan(0);
  });

  it('maps the rewritten expected calls back to the originals with the row relabel', () => {
    for (const row of rows
      .filter((candidate) => candidate.variantIndex > 0 && candidate.expect.toolCalls.length > 0)
      .slice(0, 200)) {
      const item = items.find((candidate) => candidate.id === row.itemId) as BenchItem;
      const output = invertOutput(
        [
          {
            role: 'assistant',
            content: null,
            tool_calls: row.expect.toolCalls.map((call, index) => ({
              id: `c${index}`,
              type: 'function' as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          },
        ],
        row.relabel as never,
      );
      const calls = output[0]?.role === 'assistant' ? (output[0].tool_calls ?? []) : [];
      expect(
        calls.map((call) => [call.function.name, JSON.parse(call.function.arguments)]),
        row.id,
      ).toEqual(item.expect.toolCalls.map((call) => [call.name, call.arguments]));
    }
  });

  it('is deterministic: the same rows byte for byte, whatever the other items', async () => {
    const subset = items.filter((_, index) => index % 6 === 1);
    const again = await collect(subset);
    const expected = rows.filter((row) => subset.some((item) => item.id === row.itemId));
    expect(again.rows.map((row) => JSON.stringify(row))).toEqual(expected.map((row) => JSON.stringify(row)));
  });
});

describe('holdout splits', () => {
  const subset = () => items.slice(0, 12);

  it('holds out a dimension: rows that perturb it are test, the rest train, variant 0 test', async () => {
    const { rows: split } = await collect(subset(), { holdout: { dimension: 'tools' } });
    expect(split).toHaveLength(12 * 6);
    for (const row of split) {
      const ops = row.provenance.ops as Array<{ dimension: string }>;
      const expected =
        row.variantIndex === 0 || ops.some((op) => op.dimension === 'tools') ? 'test' : 'train';
      expect(row.split, row.id).toBe(expected);
    }
    expect(split.some((row) => row.split === 'train')).toBe(true);
    expect(split.some((row) => row.split === 'test' && row.variantIndex > 0)).toBe(true);
    // Only the split depends on the holdout.
    const plain = rows.slice(0, 12 * 6);
    expect(split.map((row) => JSON.stringify({ ...row, split: 'test' }))).toEqual(
      plain.map((row) => JSON.stringify(row)),
    );
  });

  it('holds out an operator', async () => {
    const { rows: split } = await collect(subset(), { holdout: { operator: 'tools/rename' } });
    for (const row of split) {
      const ops = row.provenance.ops as Array<{ name: string }>;
      const expected =
        row.variantIndex === 0 || ops.some((op) => op.name === 'tools/rename') ? 'test' : 'train';
      expect(row.split, row.id).toBe(expected);
    }
    expect(new Set(split.map((row) => row.split))).toEqual(new Set(['train', 'test']));
  });
});

describe('rejects', () => {
  it('rejects bad records, duplicate ids and items of another harness, and goes on', async () => {
    const item = items[0] as BenchItem;
    const rejected: BenchReject[] = [];
    const out: BenchRow[] = [];
    for await (const row of generateBench(
      harness,
      [
        { line: 1, issues: [{ code: 'syntax_error', path: [], message: 'bad' }] },
        { line: 2, item },
        { line: 3, item },
        { line: 4, item: { ...item, id: 'other', harness: { id: 'elsewhere' } } },
      ],
      { plan, variants: 1, seed: 42, onReject: (reject) => rejected.push(reject) },
    ))
      out.push(row);
    expect(out.map((row) => row.id)).toEqual([`${item.id}/0`, `${item.id}/1`]);
    expect(rejected.map((reject) => [reject.reason, reject.line])).toEqual([
      ['invalid_item', 1],
      ['duplicate_id', 3],
      ['harness_mismatch', 4],
    ]);
  });

  it('rejects a variant whose gold does not certify', async () => {
    const item = structuredClone(
      items.find((candidate) => candidate.expect.toolCalls.length > 0) as BenchItem,
    );
    const call = item.gold.messages.find(
      (message) =>
        message.role === 'assistant' &&
        message.tool_calls?.[0]?.function.name !== 'load_skill' &&
        message.tool_calls,
    );
    if (call?.role === 'assistant' && call.tool_calls?.[0]) call.tool_calls[0].function.name = 'no_such_tool';
    const { rows: out, rejects: rejected } = await collect([item], { variants: 1 });
    expect(out).toEqual([]);
    expect(rejected.map((reject) => [reject.reason, reject.variantIndex])).toEqual([
      ['uncertified', 0],
      ['uncertified', 1],
    ]);
  });
});

describe('hsa bench generate', () => {
  it('streams certified rows, prints a summary and matches the API', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-bench-generate-'));
    const subset = join(folder, 'items.jsonl');
    writeFileSync(subset, readFileSync(itemsFile, 'utf8').split('\n').slice(0, 8).join('\n').concat('\n'));
    const out = join(folder, 'bench.jsonl');
    const run = runCli([
      'bench',
      'generate',
      '--items',
      subset,
      '--harness',
      harnessFile,
      '--variants',
      '2',
      '--seed',
      '42',
      '--policy',
      'hat',
      '--holdout-dimension',
      'tools',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('read 8 items: 8 accepted + 0 rejected');
    expect(run.stdout).toContain('rows: 24 written + 0 rejected');
    expect(run.stdout).toMatch(/split: test \d+, train \d+/);
    expect(run.stdout).toContain('certified 100.0%');
    expect(existsSync(join(folder, 'bench.rejects.jsonl'))).toBe(false);
    // Rows by reference, resolved through the sidecar beside them.
    let written = '';
    for await (const { row } of readAugmentedRows(out)) written += `${JSON.stringify(row)}\n`;
    const api = await collect(items.slice(0, 8), { variants: 2, holdout: { dimension: 'tools' } });
    expect(written).toBe(api.rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  });

  it('writes rejects and exits 1 when anything is rejected; usage errors exit 2', () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-bench-generate-'));
    const subset = join(folder, 'items.jsonl');
    writeFileSync(subset, `${readFileSync(itemsFile, 'utf8').split('\n')[0]}\n{oops\n`);
    const out = join(folder, 'bench.jsonl');
    const run = runCli([
      'bench',
      'generate',
      '--items',
      subset,
      '--harness',
      harnessFile,
      '--variants',
      '1',
      '--out',
      out,
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('read 2 items: 1 accepted + 1 rejected');
    expect(run.stdout).toContain('invalid_item 1');
    const rejected = readFileSync(join(folder, 'bench.rejects.jsonl'), 'utf8').trim().split('\n');
    expect(rejected.map((line) => JSON.parse(line).line)).toEqual([2]);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);

    const usage = runCli([
      'bench',
      'generate',
      '--items',
      subset,
      '--harness',
      harnessFile,
      '--holdout-dimension',
      'colour',
      '--out',
      out,
    ]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--holdout-dimension');
  });
});
