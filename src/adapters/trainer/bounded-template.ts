// Renders a user's Jinja chat template with limits, so that no template can stop the process: `range()`
// longer than `rangeLength` is an error (range(1e9) alone used to fill the heap and kill node), and the
// interpreter counts its steps, watches the clock and the size of what it builds. @huggingface/jinja has no
// such options and builds its interpreter inside `Template.render`, so the limits are a wrapper around
// `Interpreter.prototype.evaluate` that is active only while `renderBounded` runs (rendering is synchronous).
import { Interpreter, type Template } from '@huggingface/jinja';

/** The limits of one render; a template that passes one fails that row with the limit named. */
export const templateLimits = {
  /** Interpreter steps (one per expression or statement evaluated). */
  steps: 2_000_000,
  /** Characters of any string the template builds, the output included. */
  outputCharacters: 4_000_000,
  /** Items of one `range()`. */
  rangeLength: 100_000,
  /** Wall-clock time of one render. */
  timeMs: 5_000,
} as const;

export type TemplateLimits = { readonly [Key in keyof typeof templateLimits]: number };

interface Budget {
  steps: number;
  deadline: number;
  limits: TemplateLimits;
}

let active: Budget | undefined;

type Evaluate = (
  this: Interpreter,
  statement: unknown,
  environment: unknown,
) => { type: string; value: unknown };
const prototype = Interpreter.prototype as unknown as { evaluate: Evaluate; evaluateBlock: Evaluate };
const { evaluate, evaluateBlock } = prototype;

/** One step of the budget: a statement, an expression, or a block (a loop's body, even an empty one). */
function spend(budget: Budget): void {
  budget.steps += 1;
  if (budget.steps > budget.limits.steps)
    throw new Error(`template stopped: more than ${budget.limits.steps} steps`);
  if ((budget.steps & 1023) === 0 && Date.now() > budget.deadline)
    throw new Error(`template stopped: rendering took more than ${budget.limits.timeMs} ms`);
}

function checkSize(budget: Budget, result: { value: unknown }): void {
  if (typeof result.value === 'string' && result.value.length > budget.limits.outputCharacters)
    throw new Error(`template stopped: it built more than ${budget.limits.outputCharacters} characters`);
}

prototype.evaluate = function boundedEvaluate(statement, environment) {
  const budget = active;
  if (budget === undefined) return evaluate.call(this, statement, environment);
  // The first step is the program, in the environment `Template.render` has just filled: the bounded
  // `range` replaces the global one there.
  if (budget.steps === 0) {
    const global = environment as {
      variables: Map<string, unknown>;
      set(name: string, value: unknown): void;
    };
    global.variables.delete('range');
    global.set('range', boundedRange(budget.limits.rangeLength));
  }
  spend(budget);
  const result = evaluate.call(this, statement, environment);
  checkSize(budget, result);
  return result;
};

prototype.evaluateBlock = function boundedEvaluateBlock(statements, environment) {
  const budget = active;
  if (budget === undefined) return evaluateBlock.call(this, statements, environment);
  spend(budget);
  const result = evaluateBlock.call(this, statements, environment);
  checkSize(budget, result);
  return result;
};

/** Python's `range`, refusing more than `limit` items before it builds any. */
function boundedRange(limit: number) {
  return (start: number, stop?: number, step = 1): number[] => {
    const [from, to] = stop === undefined ? [0, start] : [start, stop];
    if (step === 0) throw new Error('range() step must not be zero');
    const length = Math.max(0, Math.ceil((to - from) / step));
    if (!(length <= limit)) throw new Error(`template stopped: range() of more than ${limit} items`);
    return Array.from({ length }, (_, index) => from + index * step);
  };
}

/**
 * Renders `template` with `items` within `limits`; throws an `Error` naming the limit a template passed.
 *
 * @example
 * renderBounded(new Template('{% for i in range(3) %}{{ i }}{% endfor %}'), {}) // '012'
 */
export function renderBounded(
  template: Template,
  items: Record<string, unknown>,
  limits: TemplateLimits = templateLimits,
): string {
  const outer = active;
  active = { steps: 0, deadline: Date.now() + limits.timeMs, limits };
  try {
    return template.render(items);
  } finally {
    active = outer;
  }
}
