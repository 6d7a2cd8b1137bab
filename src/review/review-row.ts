// Checks what the review page reads of a row: rows are input, written by anyone, so the variant harness must
// parse as a harness, the relabel's renames must be names, and each operator record must say what it is,
// before any of it is shown. A row that does not is refused with its place (`file:line`) and the path.
import { z } from 'zod';
import { dimensions } from '../augment/operator.js';
import type { CheckHarnessOptions } from '../harness/check-harness.js';
import { formatPath, HarnessAugmentError, type Issue } from '../harness/issues.js';
import { fromZodIssues, safeParseHarness } from '../harness/parse-harness.js';
import { hookCheckOptions, type RunContext, runContextOf } from '../harness/run-context.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { ReviewRow } from './review-page.js';

const NameMap = z.record(z.string(), z.string());
/** The relabel steps the page reads; inserted messages pass as they are. */
const RelabelShape = z.looseObject({
  steps: z.array(
    z.union([
      z.looseObject({ type: z.enum(['rename_tools', 'rename_skills']), map: NameMap }),
      z.looseObject({
        type: z.literal('rename_arguments'),
        tool: z.string(),
        renames: z.array(z.looseObject({ path: z.array(z.string()), from: z.string(), to: z.string() })),
      }),
      z.looseObject({ type: z.literal('merge_skills'), into: z.string(), sources: z.array(z.string()) }),
      z.looseObject({ type: z.literal('nest_arguments'), tool: z.string(), under: z.string() }),
      z.looseObject({ type: z.literal('insert_messages') }),
    ]),
  ),
});
const RowShape = z.looseObject({
  id: z.string(),
  variantId: z.string(),
  relabel: RelabelShape,
  provenance: z.looseObject({
    baseHash: z.string(),
    variantSeed: z.union([z.string(), z.number()]),
    ops: z.array(
      z.looseObject({
        name: z.string(),
        version: z.number(),
        dimension: z.enum(dimensions),
        severity: z.number(),
        params: z.record(z.string(), z.unknown()).default({}),
      }),
    ),
  }),
});

function refuse(where: string, issue: Issue): never {
  throw new HarnessAugmentError(`${where}: ${formatPath(issue.path)}: ${issue.message}`, {
    kind: 'usage',
    issues: [issue],
  });
}

/** How `reviewRow` reads a row's harness: the run it reads in, or (without one) the hook checks alone. */
export interface ReviewRowOptions extends CheckHarnessOptions {
  /** The run the review belongs to (`createRunContext`); its hook checks are those the harness may name. */
  run?: RunContext | undefined;
}

/**
 * Checks a row for the review page and gives back what the page reads; throws a `usage` error naming
 * `where` and the path of the first problem. Given both `run` and `hookChecks`, they must be the run's own,
 * else a usage error.
 *
 * @example
 * const row = reviewRow(JSON.parse(line), 'rows.jsonl:3');
 * // The harness names custom hook checks: read it in the run that holds them.
 * const checked = reviewRow(JSON.parse(line), 'rows.jsonl:3', { run: createRunContext({ hookChecks }) });
 */
export function reviewRow(value: unknown, where: string, options: ReviewRowOptions = {}): ReviewRow {
  const run = runContextOf(options.run, options.hookChecks);
  const shape = RowShape.safeParse(value);
  if (!shape.success) refuse(where, fromZodIssues(shape.error.issues)[0] as Issue);
  const harness = safeParseHarness((value as { harness?: unknown }).harness, hookCheckOptions(run));
  if (!harness.success) {
    const first = harness.issues[0] as Issue;
    refuse(where, { ...first, path: ['harness', ...first.path] });
  }
  const row = shape.data;
  return {
    id: row.id,
    variantId: row.variantId,
    harness: harness.data,
    relabel: row.relabel as unknown as Relabel,
    provenance: {
      baseHash: row.provenance.baseHash,
      variantSeed: String(row.provenance.variantSeed),
      ops: row.provenance.ops,
    },
  };
}
