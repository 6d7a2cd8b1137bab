// Derives the live-stream benchmark items from the fixture's gold trajectories.
//
// Usage: npx tsx scripts/generate-bench-items.ts [--check | --out FILE]
//   (no flag)   write fixtures/livestream/bench/items.jsonl;
//   --check     generate in memory and compare with the file on disk; exit 1 when it is stale;
//   --out FILE  write the items to FILE instead (the fixture on disk is left alone).
//
// Deterministic: no randomness at all. Items are picked round-robin across `meta.scenario` (scenarios in
// sorted order, trajectories in file order) from single-turn trajectories whose turn ends in a normal reply.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forbiddenTerms } from '../src/bench/derive-items.js';
import { type BenchItem, BenchItemSchema, type ExpectedCall } from '../src/bench/schema.js';
import { jsonLines } from '../src/harness/json-lines.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import type { Harness } from '../src/harness/schema.js';
import type { Message, Trajectory } from '../src/trajectory/schema.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixture = join(root, 'fixtures/livestream');
const itemsFile = join(fixture, 'bench/items.jsonl');
/** How many items to derive. */
const target = 120;
const maxFacts = 3;

/** Single-turn, no input hook, ends in a plain reply (no block, no fallback). */
function eligible(trajectory: Trajectory): boolean {
  const user = trajectory.messages.filter((message) => message.role === 'user' && !message.hsa);
  if (user.length !== 1) return false;
  if (
    trajectory.messages.some(
      (message) => 'hsa' in message && message.hsa && /blocked|fallback/.test(message.hsa.event),
    )
  )
    return false;
  const last = trajectory.messages.at(-1);
  return last?.role === 'assistant' && !last.hsa && !last.tool_calls && typeof last.content === 'string';
}

/** The accepted calls of a trajectory: not in a rejected attempt, and not answered by a hook's feedback. */
function acceptedCalls(messages: Message[]) {
  const rejected = new Set<string>();
  for (const message of messages)
    if (message.role === 'tool' && message.hsa) rejected.add(message.tool_call_id);
  return messages.flatMap((message) =>
    message.role === 'assistant' && !message.hsa && message.tool_calls
      ? message.tool_calls.filter((call) => !rejected.has(call.id))
      : [],
  );
}

// A price (¥219), a clock time (16:00, kept whole) or a plain number (48, 5.5).
const numberPattern = /¥\d+(?:\.\d+)?|(?<![\d.])\d{1,2}:\d{2}(?!\d)|(?<![\d.])\d+(?:\.\d+)?(?!\d)/g;

function numbersIn(text: string): Set<string> {
  return new Set([...text.matchAll(numberPattern)].map((match) => match[0].replace(/^¥/, '')));
}

/** Price and number strings of the reply backed by a (non-loader) tool result; prices first, at most 3. */
function factsOf(reply: string, results: string[], user: string): string[] {
  const backed = new Set(results.flatMap((result) => [...numbersIn(result)]));
  const echoed = numbersIn(user);
  const prices: string[] = [];
  const numbers: string[] = [];
  for (const match of reply.matchAll(numberPattern)) {
    const text = match[0];
    const value = text.replace(/^¥/, '');
    if (value === '1' || !backed.has(value) || echoed.has(value)) continue;
    const bucket = text.startsWith('¥') ? prices : numbers;
    if (!bucket.includes(text)) bucket.push(text);
  }
  const facts: string[] = [];
  for (const fact of [...prices, ...numbers]) {
    // "¥69" already implies "69".
    if (!facts.some((kept) => kept === fact || kept === `¥${fact}`)) facts.push(fact);
  }
  return facts.slice(0, maxFacts);
}

function deriveItem(harness: Harness, gold: Trajectory, index: number): BenchItem {
  const loader = harness.skills.loader;
  const calls = acceptedCalls(gold.messages);
  const toolCalls: ExpectedCall[] = [];
  const skills: string[] = [];
  const callNames = new Map<string, string>();
  for (const call of calls) {
    callNames.set(call.id, call.function.name);
    const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    if (call.function.name === loader.tool) {
      const skill = args[loader.argument];
      if (typeof skill === 'string' && !skills.includes(skill)) skills.push(skill);
      continue;
    }
    const tool = harness.tools.items.find((candidate) => candidate.name === call.function.name);
    const required = (tool?.parameters as { required?: string[] } | undefined)?.required ?? [];
    const expected: Record<string, unknown> = {};
    for (const key of required) if (Object.hasOwn(args, key)) expected[key] = args[key];
    toolCalls.push({ name: call.function.name, arguments: expected });
  }
  const results = gold.messages.flatMap((message) =>
    message.role === 'tool' &&
    !message.hsa &&
    callNames.has(message.tool_call_id) &&
    callNames.get(message.tool_call_id) !== loader.tool
      ? [message.content]
      : [],
  );
  const input = gold.messages.filter((message) => message.role === 'user' && !message.hsa);
  const reply = gold.messages.at(-1)?.content ?? '';
  const user = input.map((message) => message.content).join('\n');
  const item = {
    id: `item-${String(index + 1).padStart(4, '0')}`,
    harness: { id: harness.id },
    context: gold.context,
    input,
    expect: {
      toolCalls,
      skills,
      facts: factsOf(typeof reply === 'string' ? reply : '', results, user),
      forbidden: forbiddenTerms(harness),
    },
    gold,
    meta: { scenario: gold.meta?.scenario, language: gold.meta?.language, source: gold.id },
  };
  return BenchItemSchema.parse(item);
}

/** Round-robin over scenarios (sorted), trajectories in file order within each. */
function pick(trajectories: Trajectory[]): Trajectory[] {
  const byScenario = new Map<string, Trajectory[]>();
  for (const trajectory of trajectories) {
    if (!eligible(trajectory)) continue;
    const scenario = String(trajectory.meta?.scenario ?? 'unknown');
    byScenario.set(scenario, [...(byScenario.get(scenario) ?? []), trajectory]);
  }
  const queues = [...byScenario.keys()].sort().map((scenario) => byScenario.get(scenario) as Trajectory[]);
  const picked: Trajectory[] = [];
  for (let round = 0; picked.length < target && queues.some((queue) => round < queue.length); round++) {
    for (const queue of queues) {
      const next = queue[round];
      if (next && picked.length < target) picked.push(next);
    }
  }
  // Keep the items in fixture order, so that item ids follow the trajectories.
  const order = new Map(trajectories.map((trajectory, index) => [trajectory.id, index]));
  return picked.sort((a, b) => (order.get(a.id) as number) - (order.get(b.id) as number));
}

async function main() {
  const check = process.argv.includes('--check');
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex === -1 ? undefined : process.argv[outIndex + 1];
  if (outIndex !== -1 && !out) throw new Error('--out needs a file');

  const harness = await loadHarnessFile(join(fixture, 'harness.yaml'));
  const text = await readFile(join(fixture, 'trajectories.jsonl'), 'utf8');
  const problems: string[] = [];
  const trajectories: Trajectory[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const validation = validateTrajectory(JSON.parse(line), harness);
    if (!validation.valid || !validation.trajectory) {
      problems.push(
        `trajectories.jsonl:${index + 1}: ${validation.issues.map((issue) => issue.message).join('; ')}`,
      );
      continue;
    }
    trajectories.push(validation.trajectory);
  }
  const items = pick(trajectories).map((gold, index) => deriveItem(harness, gold, index));
  if (items.length < 100) problems.push(`only ${items.length} eligible items (at least 100 needed)`);
  const output = jsonLines(items);

  const counts: Record<string, number> = {};
  for (const item of items)
    counts[String(item.meta?.scenario)] = (counts[String(item.meta?.scenario)] ?? 0) + 1;
  const summary = `${items.length} items: ${Object.entries(counts)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([scenario, count]) => `${scenario} ${count}`)
    .join(', ')}`;

  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (check) {
    const current = await readFile(itemsFile, 'utf8').catch(() => '');
    const stale = current !== output;
    process.stdout.write(stale ? `stale: ${itemsFile}\n` : `up to date: ${summary}\n`);
    process.exitCode = stale || problems.length > 0 ? 1 : 0;
    return;
  }
  const file = out ?? itemsFile;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, output, 'utf8');
  process.stdout.write(`wrote ${file}: ${summary}\n`);
  if (problems.length > 0) process.exitCode = 1;
}

await main();
