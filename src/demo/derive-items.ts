// Bench items derived from gold trajectories, for a domain that ships none: single-turn trajectories whose
// turn ends in a plain reply become items whose answer key is what the gold did — its accepted tool calls
// (with the values of each tool's required arguments), the skills it loaded, and the terms of the harness's
// enabled reply-stage `banned_terms` hooks. No facts: the demo's learners write no prose.
import type { BenchItem, ExpectedCall } from '../bench/schema.js';
import { BenchItemSchema } from '../bench/schema.js';
import type { Harness } from '../harness/schema.js';
import type { Message, Trajectory } from '../trajectory/schema.js';

/** Single user turn, no block or fallback, ends in a reply without tool calls. */
export function isItemCandidate(trajectory: Trajectory): boolean {
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

function acceptedCalls(messages: readonly Message[]) {
  const rejected = new Set<string>();
  for (const message of messages)
    if (message.role === 'tool' && message.hsa) rejected.add(message.tool_call_id);
  return messages.flatMap((message) =>
    message.role === 'assistant' && !message.hsa && message.tool_calls
      ? message.tool_calls.filter((call) => !rejected.has(call.id))
      : [],
  );
}

function forbiddenTerms(harness: Harness): string[] {
  const terms: string[] = [];
  for (const hook of harness.hooks.items) {
    if (!hook.enabled || hook.check.type !== 'banned_terms') continue;
    if (hook.stage !== 'pre_reply' && hook.stage !== 'post_reply') continue;
    for (const term of hook.check.terms) if (!terms.includes(term)) terms.push(term);
  }
  return terms;
}

/**
 * The bench item of a gold trajectory (see the header for what its answer key holds).
 *
 * @example
 * const item = itemFromTrajectory(harness, gold, 'item-0001');
 */
export function itemFromTrajectory(harness: Harness, gold: Trajectory, id: string): BenchItem {
  const loader = harness.skills.loader;
  const toolCalls: ExpectedCall[] = [];
  const skills: string[] = [];
  for (const call of acceptedCalls(gold.messages)) {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.function.arguments);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        args = parsed as Record<string, unknown>;
    } catch {
      // Arguments that do not parse expect nothing.
    }
    if (call.function.name === loader.tool) {
      const skill = args[loader.argument];
      if (typeof skill === 'string' && !skills.includes(skill)) skills.push(skill);
      continue;
    }
    const tool = harness.tools.items.find((candidate) => candidate.name === call.function.name);
    const required = (tool?.parameters as { required?: unknown } | undefined)?.required;
    const expected: Record<string, unknown> = {};
    for (const key of Array.isArray(required) ? required : [])
      if (typeof key === 'string' && Object.hasOwn(args, key)) expected[key] = args[key];
    toolCalls.push({ name: call.function.name, arguments: expected });
  }
  return BenchItemSchema.parse({
    id,
    harness: { id: harness.id },
    context: gold.context,
    input: gold.messages.filter((message) => message.role === 'user' && !message.hsa),
    expect: { toolCalls, skills, facts: [], forbidden: forbiddenTerms(harness) },
    gold,
    meta: { source: gold.id, derived: true },
  });
}
