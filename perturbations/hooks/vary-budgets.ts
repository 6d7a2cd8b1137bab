// perturbations/hooks/vary-budgets.ts — varies retry budgets and length/tool-call thresholds within the bounds the trajectory allows; every hook decision stays.

import { z } from 'zod';
import {
  affectedCount,
  certifies,
  defineOperator,
  extractNumbers,
  type Harness,
  type Hook,
  harnessTextLocations,
  identityRelabel,
  numbersInWords,
  type Random,
  severityStep,
} from '../../src/kit/index.js';
import { evaluationsOf, type HookFacts, hookFacts, mostFailuresInATurn } from './_hook-facts.js';

/** One value that may change: a hook's retry budget or its threshold, with the values that keep every decision. */
interface Knob {
  hook: number;
  field: 'maxRetries' | 'max';
  current: number;
  min: number;
  max: number;
}

const codePoints = (text: string) => [...text].length;

/** What a threshold check measured on the step of an evaluation. */
function measured(
  facts: HookFacts,
  hook: Hook,
  evaluation: ReturnType<typeof evaluationsOf>[number],
): number {
  const messages = facts.trajectory.messages;
  if (hook.check.type === 'max_tool_calls') {
    // The call's rank in its turn: every call since the latest user message counts, this one included.
    const turn = facts.turnOf[evaluation.message];
    let count = 0;
    for (let index = 0; index < evaluation.message; index++) {
      const message = messages[index];
      if (facts.turnOf[index] === turn && message?.role === 'assistant')
        count += message.tool_calls?.length ?? 0;
    }
    return count + (evaluation.decision.path[3] as number) + 1;
  }
  const message = messages[evaluation.message];
  return codePoints(typeof message?.content === 'string' ? message.content : '');
}

/** The integers in `[low, high]` within a severity-scaled distance of `current`, `current` left out. */
function nearby(current: number, low: number, high: number, distance: number): number[] {
  const from = Math.max(low, current - distance);
  const to = Math.min(high, current + distance);
  const values: number[] = [];
  for (let value = from; value <= to; value++) if (value !== current) values.push(value);
  return values;
}

/**
 * The numbers texts state: in digits, by the rule `numbers_grounded` reads them with (`extractNumbers`: `1,000`
 * is 1000), and in words (`numbersInWords`: "twelve", "twice").
 */
const numbersIn = (texts: Iterable<string>) =>
  new Set([...texts].flatMap((text) => [...extractNumbers(text), ...numbersInWords(text)]));

/**
 * The numbers the harness's texts state (descriptions, feedback, prompt, skills, tools), as written: a
 * threshold one of them states stays, or the harness would say one number and enforce another ("At most 30
 * tool calls per turn." over `max: 25`).
 */
function statedNumbers(harness: Harness): Set<string> {
  let numbers = statedNumbersOf.get(harness);
  if (!numbers) {
    numbers = numbersIn(harnessTextLocations(harness).map((location) => location.text));
    statedNumbersOf.set(harness, numbers);
  }
  return numbers;
}
// Pure function of content across runs: the numbers a harness object's texts state.
const statedNumbersOf = new WeakMap<Harness, Set<string>>();

/** The numbers a hook's own texts state (its description, its feedback): a budget one of them states stays. */
const hookNumbers = (hook: Hook) =>
  numbersIn([hook.description ?? '', hook.onFail.action === 'retry' ? hook.onFail.feedback : '']);

function knobsOf(harness: Harness, facts: HookFacts): Knob[] {
  const knobs: Knob[] = [];
  const stated = statedNumbers(harness);
  harness.hooks.items.forEach((hook, index) => {
    // A budget of 0 blocks at the first failure and shows no feedback; one of 1 or more retries with it. The
    // budget stays on its side of that line: a retry hook keeps at least one retry, a blocking one none.
    if (
      hook.onFail.action === 'retry' &&
      hook.onFail.maxRetries > 0 &&
      !hookNumbers(hook).has(String(hook.onFail.maxRetries))
    ) {
      const most = mostFailuresInATurn(facts, hook.id);
      // A budget the trajectory ran out of stays exactly: a larger one would retry where it blocked.
      if (most <= hook.onFail.maxRetries) {
        knobs.push({
          hook: index,
          field: 'maxRetries',
          current: hook.onFail.maxRetries,
          min: Math.max(1, most),
          max: 20,
        });
      }
    }
    if (
      (hook.check.type === 'max_length' || hook.check.type === 'max_tool_calls') &&
      !stated.has(String(hook.check.max))
    ) {
      let min = 1;
      let max = Number.POSITIVE_INFINITY;
      for (const evaluation of evaluationsOf(facts, harness, hook)) {
        const value = measured(facts, hook, evaluation);
        if (evaluation.pass) min = Math.max(min, value);
        else max = Math.min(max, value - 1);
      }
      if (min <= max) knobs.push({ hook: index, field: 'max', current: hook.check.max, min, max });
    }
  });
  return knobs;
}

function turn(knob: Knob, severity: number, rng: Random): number | undefined {
  // A budget moves by up to 3 at full severity, a threshold by up to half its value.
  const distance = severityStep(severity, knob.field === 'maxRetries' ? 3 : knob.current * 0.5);
  const values = nearby(knob.current, knob.min, knob.max, distance);
  return values.length === 0 ? undefined : rng.pick(values);
}

/**
 * Varies the retry budgets (`maxRetries`) of retry hooks and the thresholds of `max_length` and
 * `max_tool_calls` checks within the bounds that keep every hook decision of the trajectory: a budget stays
 * at least the most failures of its hook in one turn (exactly as it is when the trajectory exhausted it),
 * a threshold stays at least the largest value that passed and below the smallest that failed. A budget stays
 * at 1 or more (at 0 a retry hook blocks without its feedback) and as it is when the hook's own texts state it
 * ("Retry up to 2 times"); a threshold that any text of the harness states ("At most 30 tool calls per
 * turn.", in digits or in words: "no more than twelve") stays as it is. Severity is
 * the share of values changed and how far they move. Skips without a trajectory.
 *
 * @example
 * const applied = await applyOperator(varyBudgets, harness, { rng: 'seed', severity: 0.5, trajectory });
 * applied.harness.hooks.items.find((hook) => hook.id === 'short_reply')?.check // e.g. { type: 'max_length', max: 94 }
 */
export const varyBudgets = defineOperator({
  id: 'hooks/vary-budgets',
  // 2: budgets stay at 1 or more; a budget its hook's texts state, or a threshold any text states, stays.
  // 3: a number stated in words ("no more than twelve tool calls", "retry twice") stays too.
  version: 3,
  dimension: 'hooks',
  mode: 'exact',
  needsExample: true,
  // Only the trajectory's own decisions stay: for rows from it, never to run episodes.
  enforcement: 'fitted',
  description: 'Varies retry budgets and thresholds of hooks within the bounds that keep every decision.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!trajectory)
      return { skip: 'needs the trajectory to know which budgets and thresholds keep its decisions' };
    const facts = hookFacts(trajectory, harness, run);
    if (!facts) return { skip: 'the trajectory does not validate under the harness' };
    const knobs = knobsOf(harness, facts).filter(
      (knob) => nearby(knob.current, knob.min, knob.max, 1).length > 0,
    );
    if (knobs.length === 0)
      return { skip: 'no retry budget or threshold can change without changing a decision' };
    const chosen = rng.fork('knobs').sample(knobs, affectedCount(severity, knobs.length));
    // Only the hooks are copied: the other parts stay the input's own objects, so that the certificate
    // compares (and counts) only what changed.
    const variant = { ...harness, hooks: structuredClone(harness.hooks) };
    for (const knob of chosen) {
      const value = turn(knob, severity, rng.fork(`value/${knob.hook}/${knob.field}`));
      const hook = variant.hooks.items[knob.hook] as Hook;
      if (value === undefined) continue;
      if (knob.field === 'maxRetries' && hook.onFail.action === 'retry') hook.onFail.maxRetries = value;
      if (knob.field === 'max' && (hook.check.type === 'max_length' || hook.check.type === 'max_tool_calls'))
        hook.check.max = value;
    }
    if (!certifies({ base: harness, variant, trajectory, run }))
      return { skip: 'the varied hooks change a decision' };
    return { harness: variant, relabel: identityRelabel };
  },
});
