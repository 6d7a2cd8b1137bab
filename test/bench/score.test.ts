import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { quantile } from '../../src/bench/bootstrap.js';
import { generateBench } from '../../src/bench/generate.js';
import { type BenchItemRecord, readBenchItems } from '../../src/bench/items.js';
import type { BenchRow, Expectations, Prediction } from '../../src/bench/schema.js';
import { BenchRowSchema } from '../../src/bench/schema.js';
import { expectationsAsPredictions, mapExpectations, scoreBench, scoreRow } from '../../src/bench/score.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { Harness } from '../../src/harness/schema.js';
import { invertOutput, type Relabel } from '../../src/trajectory/relabel.js';
import type { Message } from '../../src/trajectory/schema.js';
import { projectRoot } from '../support/run-cli.js';
import { travelContext, travelHarness } from '../support/travel-harness.js';

const baseExpect: Expectations = {
  toolCalls: [{ name: 'get_baggage_policy', arguments: { fare_class: 'standard' } }],
  skills: ['baggage'],
  facts: ['8 kg', '23 kg'],
  forbidden: ['guaranteed'],
};

function makeRow(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
  itemId: string,
  variantIndex: number,
  provenance: Record<string, unknown> = { changed: [], ops: [] },
  expect: Expectations = baseExpect,
): BenchRow {
  return BenchRowSchema.parse({
    id: `${itemId}/${variantIndex}`,
    itemId,
    variantIndex,
    variantId: variantIndex === 0 ? 'base' : `v${variantIndex}`,
    split: 'test',
    harness: variant,
    input: {
      messages: [
        { role: 'system', content: renderSystemPrompt(variant, travelContext) },
        { role: 'user', content: 'How much luggage can I bring on a standard fare?' },
      ],
      tools: toChatCompletionTools(variant),
    },
    expect: mapExpectations(expect, relabel, 'forward', base),
    relabel,
    provenance,
    certificate: {},
  });
}

/** A small bench from the live-stream fixture's items, one dimension per variant (so a dimension's gap is its own). */
async function smallBench(items = 6, variants = 4): Promise<BenchRow[]> {
  const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
  const hat = presets.hat as { dimensions: Record<string, { operators: unknown[] }> };
  const dimensions = Object.fromEntries(
    ['skill-ids', 'skill-content', 'prompt', 'hooks'].map((name) => [
      name,
      { operators: hat.dimensions[name]?.operators },
    ]),
  );
  const policy = {
    choose: 1,
    severity: 'medium',
    dimensions: {
      ...dimensions,
      tools: {
        operators: [{ op: 'tools/rename', weight: 3 }, 'tools/rename-parameters', 'tools/reorder-properties'],
      },
    },
  };
  const plan = compilePolicy(parsePolicy(policy), await builtinRegistry());
  const records: BenchItemRecord[] = [];
  for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'))) {
    records.push(record);
    if (records.length >= items) break;
  }
  const rows: BenchRow[] = [];
  for await (const row of generateBench(harness, records, { plan, variants, seed: 11 })) rows.push(row);
  return rows;
}

const call = (name: string, args: unknown, id = 'c'): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const reply = (content: string): Message => ({ role: 'assistant', content });
const predict = (row: BenchRow, output: Message[]): Prediction => ({ id: row.id, output });

describe('scoreRow', () => {
  const base = travelHarness();
  const original = makeRow(base, base, { steps: [] }, 'bag', 0);
  const good = [
    call('load_skill', { skill_id: 'baggage' }, 'a'),
    call('get_baggage_policy', { fare_class: 'standard' }, 'b'),
    reply('On a standard fare: 8 kg cabin bag and 23 KG checked.'),
  ];

  it('passes a good output and fails everything without a prediction', () => {
    expect(scoreRow(original, predict(original, good))).toEqual({
      toolSelection: true,
      argumentAccuracy: true,
      skillSelection: true,
      replyCompliance: true,
      overall: true,
    });
    expect(Object.values(scoreRow(original, undefined)).every((value) => value === false)).toBe(true);
  });

  it('tool selection: a missing expected tool or an unknown tool fails', () => {
    const missing = scoreRow(original, predict(original, [good[0] as Message, good[2] as Message]));
    expect(missing.toolSelection).toBe(false);
    expect(missing.argumentAccuracy).toBe(false);
    expect(missing.skillSelection).toBe(true);
    const unknown = scoreRow(
      original,
      predict(original, [...good.slice(0, 2), call('book_taxi', {}), good[2] as Message]),
    );
    expect(unknown.toolSelection).toBe(false);
    expect(unknown.argumentAccuracy).toBe(true);
    expect(unknown.overall).toBe(false);
  });

  it('argument accuracy: wrong values, invalid arguments and nested values compared as JSON', () => {
    const wrong = scoreRow(
      original,
      predict(original, [
        good[0] as Message,
        call('get_baggage_policy', { fare_class: 'flex' }),
        good[2] as Message,
      ]),
    );
    expect(wrong).toMatchObject({ toolSelection: true, argumentAccuracy: false });
    const invalid = scoreRow(
      original,
      predict(original, [
        good[0] as Message,
        call('get_baggage_policy', { fare_class: 'standard', extra: 1 }),
        good[2] as Message,
      ]),
    );
    expect(invalid).toMatchObject({ toolSelection: true, argumentAccuracy: false });
    // A second call with the right values is enough.
    const second = scoreRow(
      original,
      predict(original, [
        good[0] as Message,
        call('get_baggage_policy', { fare_class: 'flex' }),
        good[1] as Message,
        good[2] as Message,
      ]),
    );
    expect(second.argumentAccuracy).toBe(true);
    const nestedExpect: Expectations = {
      toolCalls: [{ name: 'find_flights', arguments: { origin: 'LIS', filters: { max_stops: 0 } } }],
      skills: [],
      facts: [],
      forbidden: [],
    };
    const nested = makeRow(base, base, { steps: [] }, 'fly', 0, undefined, nestedExpect);
    const flights = (filters: unknown) =>
      scoreRow(
        nested,
        predict(nested, [
          call('find_flights', { origin: 'LIS', destination: 'OPO', date: 'x', filters }),
          reply('ok'),
        ]),
      );
    expect(flights({ max_stops: 0 }).argumentAccuracy).toBe(true);
    expect(flights({ max_stops: 0, cabin: 'economy' }).argumentAccuracy).toBe(false);
  });

  it('skill selection: every expected skill loaded through the loader', () => {
    const none = scoreRow(original, predict(original, good.slice(1)));
    expect(none).toMatchObject({ skillSelection: false, toolSelection: true, overall: false });
    const other = scoreRow(
      original,
      predict(original, [call('load_skill', { skill_id: 'rebooking' }), ...good.slice(1)]),
    );
    expect(other.skillSelection).toBe(false);
  });

  it('reply compliance: the last reply holds every fact (any case) and no forbidden term', () => {
    const score = (text: string) =>
      scoreRow(original, predict(original, [...good.slice(0, 2), reply(text)])).replyCompliance;
    expect(score('8 KG cabin, 23 kg checked')).toBe(true);
    expect(score('8 kg cabin only')).toBe(false);
    expect(score('8 kg and 23 kg, GUARANTEED')).toBe(false);
    const earlier = scoreRow(
      original,
      predict(original, [reply('8 kg and 23 kg'), ...good.slice(0, 2), reply('see above')]),
    );
    expect(earlier.replyCompliance).toBe(false);
  });

  it('scores in the base vocabulary, but the old name under a renamed harness fails', () => {
    const renamed = renameSymbols(base, {
      tools: { get_baggage_policy: 'baggage_rules' },
      skills: { baggage: 'luggage_allowance' },
    });
    const row = makeRow(base, renamed.harness, renamed.relabel, 'bag', 1, {
      changed: ['tools', 'skill-ids'],
      ops: [],
    });
    expect(row.expect.toolCalls[0]?.name).toBe('baggage_rules');
    expect(row.expect.skills).toEqual(['luggage_allowance']);
    const right = [
      call('load_skill', { skill_id: 'luggage_allowance' }, 'a'),
      call('baggage_rules', { fare_class: 'standard' }, 'b'),
      reply('8 kg and 23 kg'),
    ];
    expect(scoreRow(row, predict(row, right)).overall).toBe(true);
    // The inverse of the old names looks right; the variant says they do not exist.
    expect(invertOutput(good, row.relabel as Relabel)[1]).toEqual(good[1]);
    const stale = scoreRow(row, predict(row, good));
    expect(stale).toMatchObject({
      toolSelection: false,
      argumentAccuracy: false,
      skillSelection: false,
      overall: false,
    });
  });
});

describe('scoreBench', () => {
  it('expectations as predictions score 100% on every row of a generated bench', async () => {
    const rows = await smallBench(12, 3);
    const predictions = expectationsAsPredictions(rows);
    for (const row of rows) {
      const prediction = predictions.find((entry) => entry.id === row.id);
      expect(scoreRow(row, prediction), row.id).toMatchObject({ overall: true });
    }
    const scores = scoreBench(rows, predictions, { seed: 1, resamples: 200 });
    expect(scores.overall.criteria.overall.original.mean).toBe(1);
    expect(scores.overall.criteria.overall.variants.mean).toBe(1);
    expect(scores.overall.criteria.overall.gap).toEqual({ mean: 0, low: 0, high: 0 });
    expect(scores.passK.estimate.mean).toBe(1);
    expect(scores.missing).toEqual([]);
  });

  it('bootstrap intervals are deterministic for a seed and bracket the mean', async () => {
    const rows = await smallBench(6, 3);
    // Half of the predictions are wrong, so the intervals have width.
    const predictions = expectationsAsPredictions(rows).map((prediction, index) =>
      index % 3 === 0 ? { ...prediction, output: [reply('no idea')] } : prediction,
    );
    const first = scoreBench(rows, predictions, { seed: 'a', resamples: 300 });
    const again = scoreBench(rows, predictions, { seed: 'a', resamples: 300 });
    const other = scoreBench(rows, predictions, { seed: 'b', resamples: 300 });
    expect(again).toEqual(first);
    expect(JSON.stringify(other.overall)).not.toEqual(JSON.stringify(first.overall));
    const { variants } = first.overall.criteria.overall;
    expect(variants.low).not.toBeNull();
    expect(variants.low as number).toBeLessThanOrEqual(variants.mean as number);
    expect(variants.high as number).toBeGreaterThanOrEqual(variants.mean as number);
    expect(quantile([0, 1, 2, 3], 0.5)).toBe(1.5);
  });

  it('a brittle predictor that calls the base tool names shows a gap, largest in the tools dimension', async () => {
    const rows = await smallBench(10, 4);
    const perfect = expectationsAsPredictions(rows);
    const brittle = perfect.map((prediction, index) => {
      const row = rows[index] as BenchRow;
      const inverted = invertOutput(prediction.output, row.relabel as Relabel);
      // Base tool names, whatever the variant; the skill loads and arguments stay as the variant says.
      const output = prediction.output.map((message, position) => {
        const back = inverted[position] as Message;
        if (message.role !== 'assistant' || !message.tool_calls || back.role !== 'assistant') return message;
        if (message.tool_calls[0]?.function.name === row.harness.skills.loader.tool) return message;
        return {
          ...message,
          tool_calls: message.tool_calls.map((toolCall, at) => ({
            ...toolCall,
            function: {
              ...toolCall.function,
              name: back.tool_calls?.[at]?.function.name ?? toolCall.function.name,
            },
          })),
        };
      });
      return { id: prediction.id, output };
    });
    const scores = scoreBench(rows, brittle, { seed: 3, resamples: 200 });
    const gap = scores.overall.criteria.overall.gap.mean as number;
    expect(gap).toBeGreaterThan(0);
    expect(scores.overall.criteria.overall.original.mean).toBe(1);
    const gaps = Object.entries(scores.byDimension).map(
      ([name, group]) => [name, group.criteria.overall.gap.mean as number] as const,
    );
    gaps.sort((a, b) => b[1] - a[1]);
    expect(gaps[0]?.[0]).toBe('tools');
    expect(scores.byDimension.tools?.criteria.toolSelection.gap.mean).toBeGreaterThan(0);
    expect(Object.keys(scores.byOperator).length).toBeGreaterThan(0);
  });
});
