// Scoring variant benchmark rows. A prediction is judged in the BASE vocabulary: its output and the row's
// expectations are both mapped back through the row's relabel and compared there. The variant still has
// the last word on what exists: a call of a tool the variant does not offer, or with arguments its schema
// rejects, fails even when its inverse looks right (the old name under a renamed harness is wrong).
import { canonicalJson } from '../harness/canonical-json.js';
import { validateAgainstSchema } from '../harness/json-schema-validator.js';
import type { Harness } from '../harness/schema.js';
import { type OutputContext, type Relabel, relabelMessages } from '../trajectory/relabel.js';
import type { AssistantMessage, Message } from '../trajectory/schema.js';
import { type BootstrapEstimate, bootstrapGroup, type ItemTally } from './bootstrap.js';
import type { BenchRow, Criterion, Expectations, ExpectedCall, Prediction } from './schema.js';
import { criteria } from './schema.js';

/** The four criteria and the overall pass of one row. */
export type RowScore = Record<Criterion, boolean>;

const failed: RowScore = {
  toolSelection: false,
  argumentAccuracy: false,
  skillSelection: false,
  replyCompliance: false,
  overall: false,
};

function relabelOf(row: Pick<BenchRow, 'relabel'>): Relabel {
  return row.relabel as unknown as Relabel;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool calls of a list of messages, in order. */
function toolCallsOf(messages: Message[]): Array<{ name: string; arguments: string }> {
  return messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls
      ? message.tool_calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments }))
      : [],
  );
}

/** Expected calls and skill loads as assistant messages: one with the tool calls, one with the loader calls. */
function expectationMessages(expect: Expectations, loader: { tool: string; argument: string }): Message[] {
  const messages: Message[] = [];
  if (expect.toolCalls.length > 0)
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: expect.toolCalls.map((call, index) => ({
        id: `expect_call_${index}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      })),
    });
  if (expect.skills.length > 0)
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: expect.skills.map((skill, index) => ({
        id: `expect_skill_${index}`,
        type: 'function',
        function: { name: loader.tool, arguments: JSON.stringify({ [loader.argument]: skill }) },
      })),
    });
  return messages;
}

/** Reads expectations back from messages built by `expectationMessages` (after a relabel). */
function readExpectations(messages: Message[], original: Expectations): Expectations {
  const calls = toolCallsOf(messages);
  const toolCalls: ExpectedCall[] = calls.slice(0, original.toolCalls.length).map((call) => {
    const parsed = parseArguments(call.arguments);
    return { name: call.name, arguments: isObject(parsed) ? parsed : {} };
  });
  const skills = calls.slice(original.toolCalls.length).map((call) => {
    const parsed = parseArguments(call.arguments);
    // Each load was built with one argument; a relabel may rename its key, never add one.
    const value = isObject(parsed) ? Object.values(parsed)[0] : undefined;
    return typeof value === 'string' ? value : String(value);
  });
  // Facts and forbidden terms are reply text in the base vocabulary (as `generateBench` keeps them): they stay.
  return { toolCalls, skills, facts: [...original.facts], forbidden: [...original.forbidden] };
}

/** The loader as named in the base vocabulary: the variant's loader call, mapped back. */
function baseLoader(harness: Harness, relabel: Relabel): { tool: string; argument: string } {
  const { tool, argument } = harness.skills.loader;
  const probe: Message = {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'probe',
        type: 'function',
        function: { name: tool, arguments: JSON.stringify({ [argument]: 'x' }) },
      },
    ],
  };
  const [call] = toolCallsOf(relabelMessages([probe], relabel, 'inverse', false));
  const parsed = call ? parseArguments(call.arguments) : undefined;
  const key = isObject(parsed) ? Object.keys(parsed)[0] : undefined;
  return { tool: call?.name ?? tool, argument: key ?? argument };
}

/**
 * Maps expectations through a relabel: `inverse` takes a row's expectations (variant vocabulary) back to
 * the base vocabulary, `forward` takes an item's expectations into a variant. `harness` is the harness whose
 * vocabulary `expect` is in (its loader names the skill loads). Calls and skills move; facts and forbidden
 * terms are reply text in the base vocabulary and stay, as in `generateBench`.
 *
 * @example
 * mapExpectations(row.expect, row.relabel, 'inverse', row.harness) // the base expectations
 */
export function mapExpectations(
  expect: Expectations,
  relabel: Pick<BenchRow, 'relabel'>['relabel'] | Relabel,
  direction: 'forward' | 'inverse',
  harness: Harness,
  context: OutputContext = {},
): Expectations {
  const steps = relabel as Relabel;
  const loader = harness.skills.loader;
  const messages = expectationMessages(expect, loader);
  const mapped = relabelMessages(messages, steps, direction, false, context);
  return readExpectations(mapped, expect);
}

/** The number of user messages (hook turns aside) of a conversation. */
function userTurns(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === 'user' && !('hsa' in message && message.hsa)).length;
}

/** How many variant rows changed one dimension, and how many several. */
function attributionOf(results: readonly RowResult[]): ScoresDocument['attribution'] {
  const variants = results.filter((result) => result.variantIndex > 0 && result.changed.length > 0);
  const oneDimension = variants.filter((result) => result.changed.length === 1).length;
  return {
    variantRows: variants.length,
    oneDimension,
    severalDimensions: variants.length - oneDimension,
    attributable: variants.length > 0 && oneDimension === variants.length,
  };
}

/** Reads a value by key, or by a dotted key path when the key itself is absent. */
function lookup(args: Record<string, unknown>, key: string): { found: boolean; value?: unknown } {
  if (Object.hasOwn(args, key)) return { found: true, value: args[key] };
  if (!key.includes('.')) return { found: false };
  let current: unknown = args;
  for (const part of key.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, part)) return { found: false };
    current = current[part];
  }
  return { found: true, value: current };
}

function containsExpected(args: unknown, expected: Record<string, unknown>): boolean {
  if (!isObject(args)) return false;
  return Object.entries(expected).every(([key, value]) => {
    const actual = lookup(args, key);
    return actual.found && canonicalJson(actual.value) === canonicalJson(value);
  });
}

/** The names a model may call under a harness: its tools and the skill loader. */
function callableNames(harness: Harness): Set<string> {
  return new Set([...harness.tools.items.map((tool) => tool.name), harness.skills.loader.tool]);
}

/**
 * Scores one row. A missing prediction fails everything.
 *
 * @example
 * scoreRow(row, { id: row.id, output: [...] }).overall
 */
export function scoreRow(row: BenchRow, prediction: Prediction | undefined): RowScore {
  if (!prediction) return { ...failed };
  const relabel = relabelOf(row);
  const harness = row.harness;
  // The output answers the row's last user turn; merged skills map back to what the gold loaded there.
  const context = { turn: userTurns(row.input.messages) };
  const base = mapExpectations(row.expect, relabel, 'inverse', harness, context);
  const loader = baseLoader(harness, relabel);
  const output = prediction.output.filter((message) => message.role === 'assistant');
  const inverted = relabelMessages(output, relabel, 'inverse', false, context);
  // Calls pair one to one, in order, before and after the inverse (a model's output holds no inserted turn).
  const rawCalls = toolCallsOf(output);
  const baseCalls = toolCallsOf(inverted);
  const callable = callableNames(harness);
  const variantLoader = harness.skills.loader.tool;
  const calls = rawCalls.map((raw, index) => {
    const mapped = baseCalls[index] ?? raw;
    const exists = callable.has(raw.name);
    const rawArgs = parseArguments(raw.arguments);
    const tool = harness.tools.items.find((item) => item.name === raw.name);
    const valid =
      exists &&
      isObject(rawArgs) &&
      (raw.name === variantLoader ||
        (tool !== undefined && validateAgainstSchema(tool.parameters, rawArgs).length === 0));
    return {
      raw,
      name: mapped.name,
      args: parseArguments(mapped.arguments),
      exists,
      valid,
      loader: raw.name === variantLoader,
    };
  });

  const toolSelection =
    calls.every((call) => call.exists) &&
    base.toolCalls.every((expected) => calls.some((call) => !call.loader && call.name === expected.name));
  const argumentAccuracy = base.toolCalls.every((expected) =>
    calls.some(
      (call) =>
        !call.loader &&
        call.valid &&
        call.name === expected.name &&
        containsExpected(call.args, expected.arguments),
    ),
  );
  // A load counts when it names a skill of the variant (the old id under a renamed harness does not).
  const variantSkills = new Set(harness.skills.items.map((skill) => skill.id));
  const loaded = new Set(
    calls
      .filter((call) => {
        if (!call.loader) return false;
        const rawArgs = parseArguments(call.raw.arguments);
        const named = isObject(rawArgs) ? rawArgs[harness.skills.loader.argument] : undefined;
        return typeof named === 'string' && variantSkills.has(named);
      })
      .map((call) => (isObject(call.args) ? call.args[loader.argument] : undefined))
      .filter((skill): skill is string => typeof skill === 'string'),
  );
  const skillSelection = base.skills.every((skill) => loaded.has(skill));
  const reply = [...inverted]
    .reverse()
    .find(
      (message): message is AssistantMessage =>
        message.role === 'assistant' && typeof message.content === 'string' && message.content.trim() !== '',
    );
  const text = (reply?.content ?? '').toLowerCase();
  const replyCompliance =
    base.facts.every((fact) => text.includes(fact.toLowerCase())) &&
    base.forbidden.every((term) => !text.includes(term.toLowerCase()));
  return {
    toolSelection,
    argumentAccuracy,
    skillSelection,
    replyCompliance,
    overall: toolSelection && argumentAccuracy && skillSelection && replyCompliance,
  };
}

// ── Placeholders for the arguments an expectation leaves open ───────────────────────────────────────

function placeholder(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return 'x';
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return placeholder(options[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const exclusive = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
      const value =
        minimum ?? exclusive ?? (typeof schema.maximum === 'number' ? Math.min(0, schema.maximum) : 1);
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: count }, () => placeholder(schema.items, depth + 1));
    }
    case 'object':
      return fillRequired({}, schema, depth + 1);
    default: {
      const candidates = [
        'x',
        'AAA',
        'A',
        '0',
        '2026-01-01',
        'a@example.com',
        'https://example.com',
        'xxxxxxxx',
      ];
      return candidates.find((candidate) => validateAgainstSchema(schema, candidate).length === 0) ?? 'x';
    }
  }
}

function fillRequired(
  value: Record<string, unknown>,
  schema: Record<string, unknown>,
  depth = 0,
): Record<string, unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const filled = { ...value };
  for (const key of required) {
    if (!Object.hasOwn(filled, key)) filled[key] = placeholder(properties[key], depth);
    else if (isObject(filled[key]) && isObject(properties[key]))
      filled[key] = fillRequired(
        filled[key] as Record<string, unknown>,
        properties[key] as Record<string, unknown>,
        depth + 1,
      );
  }
  return filled;
}

/** Expected arguments as an object: dotted key paths that are not the schema's keys become nested objects. */
function argumentsFor(
  expected: ExpectedCall,
  parameters: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const properties = isObject(parameters?.properties) ? parameters.properties : {};
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expected.arguments)) {
    if (!key.includes('.') || Object.hasOwn(properties, key)) {
      args[key] = value;
      continue;
    }
    const parts = key.split('.');
    let target = args;
    for (const part of parts.slice(0, -1)) {
      if (!isObject(target[part])) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts.at(-1) as string] = value;
  }
  if (!parameters || validateAgainstSchema(parameters, args).length === 0) return args;
  return fillRequired(args, parameters);
}

/**
 * Predictions that do exactly what each row expects, in the row's vocabulary: the expected tool calls (other
 * required arguments filled with valid placeholders only where the schema needs them), the skill loads, and a
 * final reply made of the facts. They score 100% on every row.
 *
 * @example
 * scoreBench(rows, expectationsAsPredictions(rows), { seed: '0' }).overall.overall.variants.mean // 1
 */
export function expectationsAsPredictions(rows: readonly BenchRow[]): Prediction[] {
  return rows.map((row) => {
    const { loader } = row.harness.skills;
    const output: Message[] = [];
    let counter = 0;
    const callMessage = (name: string, args: Record<string, unknown>): Message => ({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `call_${++counter}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      ],
    });
    for (const skill of row.expect.skills)
      output.push(callMessage(loader.tool, { [loader.argument]: skill }));
    for (const expected of row.expect.toolCalls) {
      const tool = row.harness.tools.items.find((item) => item.name === expected.name);
      output.push(callMessage(expected.name, argumentsFor(expected, tool?.parameters)));
    }
    output.push({ role: 'assistant', content: row.expect.facts.join(' ') || 'Done.' });
    return { id: row.id, output };
  });
}

// ── The scores document ─────────────────────────────────────────────────────────────────────────────

/** Original, variants and their gap for one criterion. */
export interface Comparison {
  original: BootstrapEstimate;
  variants: BootstrapEstimate;
  gap: BootstrapEstimate;
}

/**
 * Original-vs-variant comparisons of one group of rows (a dimension, an operator, a split), per criterion.
 */
export interface GroupScores {
  /** Items with at least one row in the group. */
  items: number;
  /** Variant rows in the group. */
  rows: number;
  criteria: Record<Criterion, Comparison>;
}

/** One scored row: its item, variant, split, the dimensions and operators that changed it, and its scores. */
export interface RowResult {
  id: string;
  itemId: string;
  variantIndex: number;
  split: 'train' | 'test';
  changed: string[];
  ops: string[];
  missing: boolean;
  scores: RowScore;
}

/**
 * What `scoreBench` returns (`scores.json`): counts, every row's result, and the gaps overall, by dimension
 * and by operator, with bootstrap intervals.
 */
export interface ScoresDocument {
  format: 'hsa-bench-scores/1';
  seed: string;
  resamples: number;
  confidence: 0.95;
  counts: {
    rows: number;
    items: number;
    originals: number;
    variants: number;
    predictions: number;
    missing: number;
  };
  /** Row ids without a prediction (they fail every criterion). */
  missing: string[];
  /** Over all items: originals (variant 0) vs variants (1..N). */
  overall: GroupScores;
  /** Variant rows whose `provenance.changed` holds the dimension, vs the originals of the same items. */
  byDimension: Record<string, GroupScores>;
  /** Variant rows made with the operator (`provenance.ops[].name`), vs the originals of the same items. */
  byOperator: Record<string, GroupScores>;
  /** pass^k: the share of items all of whose rows (original and variants) pass overall. */
  passK: { items: number; k: number; estimate: BootstrapEstimate };
  /**
   * Whether per-dimension gaps are attributable: how many variant rows changed exactly one dimension, and
   * how many changed several (those count in each dimension they changed, so their gaps are confounded).
   */
  attribution: {
    variantRows: number;
    oneDimension: number;
    severalDimensions: number;
    attributable: boolean;
  };
  rows: RowResult[];
}

/** The seed and the number of bootstrap resamples `scoreBench` draws its intervals with. */
export interface ScoreBenchOptions {
  seed: string | number;
  resamples?: number;
}

function stringList(value: unknown, pick: (entry: unknown) => unknown = (entry) => entry): string[] {
  return Array.isArray(value)
    ? value.map(pick).filter((entry): entry is string => typeof entry === 'string')
    : [];
}

/**
 * Scores a bench: every row, then means per criterion for originals and variants, their gap per dimension
 * and per operator, and pass^k, each with a 95% bootstrap interval over items (seeded, deterministic).
 *
 * @example
 * const scores = scoreBench(rows, predictions, { seed: '0', resamples: 1000 });
 */
export function scoreBench(
  rows: readonly BenchRow[],
  predictions: readonly Prediction[] | ReadonlyMap<string, Prediction>,
  options: ScoreBenchOptions,
): ScoresDocument {
  const seed = String(options.seed);
  const resamples = options.resamples ?? 1000;
  const byId =
    predictions instanceof Map ? predictions : new Map((predictions as Prediction[]).map((p) => [p.id, p]));
  const results: RowResult[] = rows.map((row) => {
    const prediction = byId.get(row.id);
    return {
      id: row.id,
      itemId: row.itemId,
      variantIndex: row.variantIndex,
      split: row.split,
      changed: stringList(row.provenance.changed),
      ops: stringList(row.provenance.ops, (op) => (isObject(op) ? op.name : undefined)),
      missing: prediction === undefined,
      scores: scoreRow(row, prediction),
    };
  });

  const itemIds = [...new Set(results.map((result) => result.itemId))];
  const byItem = new Map<string, RowResult[]>(itemIds.map((id) => [id, []]));
  for (const result of results) byItem.get(result.itemId)?.push(result);

  const all = () => true;
  const tallies = (select: (result: RowResult) => boolean): ItemTally[] =>
    itemIds.flatMap((itemId) => {
      const itemRows = byItem.get(itemId) ?? [];
      const variants = itemRows.filter((result) => result.variantIndex > 0 && select(result));
      if (variants.length === 0 && select !== all) return [];
      const originals = itemRows.filter((result) => result.variantIndex === 0);
      const sum = (list: RowResult[]) =>
        criteria.map((criterion) => list.filter((result) => result.scores[criterion]).length);
      return [
        {
          originalPass: sum(originals),
          originalCount: originals.length,
          variantPass: sum(variants),
          variantCount: variants.length,
        },
      ];
    });
  const group = (name: string, select: (result: RowResult) => boolean): GroupScores => {
    return groupScores(tallies(select), `${seed}/bootstrap/${name}`, resamples);
  };

  const dimensionNames = [...new Set(results.flatMap((result) => result.changed))].sort();
  const operatorNames = [...new Set(results.flatMap((result) => result.ops))].sort();
  const passItems: ItemTally[] = itemIds.map((itemId) => {
    const itemRows = byItem.get(itemId) ?? [];
    const pass = itemRows.every((result) => result.scores.overall) ? 1 : 0;
    return { originalPass: [pass], originalCount: 1, variantPass: [0], variantCount: 0 };
  });
  const passK = bootstrapGroup(passItems, 1, {
    seed: `${seed}/bootstrap/pass-k`,
    resamples,
  })[0] as Comparison;

  return {
    format: 'hsa-bench-scores/1',
    seed,
    resamples,
    confidence: 0.95,
    counts: {
      rows: results.length,
      items: itemIds.length,
      originals: results.filter((result) => result.variantIndex === 0).length,
      variants: results.filter((result) => result.variantIndex > 0).length,
      predictions: results.filter((result) => !result.missing).length,
      missing: results.filter((result) => result.missing).length,
    },
    missing: results.filter((result) => result.missing).map((result) => result.id),
    overall: group('overall', all),
    byDimension: Object.fromEntries(
      dimensionNames.map((name) => [
        name,
        group(`dimension/${name}`, (result) => result.changed.includes(name)),
      ]),
    ),
    byOperator: Object.fromEntries(
      operatorNames.map((name) => [name, group(`operator/${name}`, (result) => result.ops.includes(name))]),
    ),
    attribution: attributionOf(results),
    passK: {
      items: itemIds.length,
      k: Math.max(0, ...itemIds.map((itemId) => byItem.get(itemId)?.length ?? 0)),
      estimate: passK.original,
    },
    rows: results,
  };
}

/**
 * The scores of one group of items: each criterion's comparison, bootstrapped over the items.
 *
 * @example
 * groupScores(tallies, 'seed/bootstrap/overall', 1000).criteria.overall.gap.mean
 */
export function groupScores(items: ItemTally[], seed: string, resamples: number): GroupScores {
  const estimates = bootstrapGroup(items, criteria.length, { seed, resamples });
  return {
    items: items.length,
    rows: items.reduce((total, item) => total + item.variantCount, 0),
    criteria: Object.fromEntries(
      criteria.map((criterion, index) => [criterion, estimates[index] as Comparison]),
    ) as Record<Criterion, Comparison>,
  };
}
