// The warnings `hsa augment` prints before it writes: one line per operator of the policy that cannot apply
// to the harness, except where the harness lacks a whole part (no skills, no hooks, no tools): then one line
// says so for every operator that works on that part, instead of a line each with the same cause.
import type { OperatorApplicability } from '../augment/applicability.js';
import type { Dimension } from '../augment/operator.js';
import type { Harness } from '../harness/schema.js';

/** The part each dimension's operators work on, and how a harness without it is named. */
const partOf: Record<Dimension, { missing: (harness: Harness) => boolean; what: string } | undefined> = {
  'skill-ids': { missing: (harness) => harness.skills.items.length === 0, what: 'skills' },
  'skill-content': { missing: (harness) => harness.skills.items.length === 0, what: 'skills' },
  tools: { missing: (harness) => harness.tools.items.length === 0, what: 'tools' },
  hooks: { missing: (harness) => harness.hooks.items.length === 0, what: 'hooks' },
  prompt: undefined,
};

/**
 * The warning lines for the operators that cannot apply, in the policy's order: a part the harness lacks
 * first gets one line naming its operators, then each other operator its own line with its reason.
 *
 * @example
 * applicabilityWarnings(applicability.operators, harness)
 * // ['warning: the harness has no skills: the policy's 9 skill-ids and skill-content operators cannot apply', …]
 */
export function applicabilityWarnings(
  operators: readonly OperatorApplicability[],
  harness: Harness,
): string[] {
  const lines: string[] = [];
  const byMissingPart = new Map<string, OperatorApplicability[]>();
  for (const entry of operators) {
    if (entry.applies) continue;
    const part = partOf[entry.dimension];
    if (part?.missing(harness))
      byMissingPart.set(part.what, [...(byMissingPart.get(part.what) ?? []), entry]);
  }
  for (const [what, entries] of byMissingPart) {
    const dimensions = [...new Set(entries.map((entry) => entry.dimension))];
    const kinds = `${dimensions.join(' and ')} operator${entries.length === 1 ? '' : 's'}`;
    lines.push(`warning: the harness has no ${what}: the policy's ${entries.length} ${kinds} cannot apply`);
  }
  for (const entry of operators) {
    if (entry.applies || partOf[entry.dimension]?.missing(harness)) continue;
    lines.push(`warning: ${entry.operator} cannot apply to this harness: ${entry.reason}`);
  }
  return lines;
}
