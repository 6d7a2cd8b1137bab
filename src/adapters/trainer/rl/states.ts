// The harness states of a set of RL rows: each row runs under the original harness or one variant, and a
// trainer that shows the model a state's tools (TRL's `environment_factory`, veRL's agent loops) needs the
// tools of each state, not the union over all of them.
import type { RlRow } from '../../../pipeline/rl.js';
import type { OfferedTool } from '../../../trajectory/schema.js';

/** A row's harness-state id: its variant id, or `original`. */
export function stateId(row: RlRow): string {
  return row.variantId ?? 'original';
}

/**
 * Every state of the rows with its tools, sorted by state id. All rows of one state share its tools (the
 * variant id fixes the harness), so the first row's list is the state's.
 *
 * @example
 * toolsByState(rows).get('original') // the base harness's tools, as offered
 */
export function toolsByState(rows: readonly RlRow[]): Map<string, OfferedTool[]> {
  const states = new Map<string, OfferedTool[]>();
  for (const row of rows) if (!states.has(stateId(row))) states.set(stateId(row), row.tools);
  return new Map([...states.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
