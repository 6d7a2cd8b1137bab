// The operator registry is explicit data: built-ins and user operators passed in, duplicate ids refused.
import { HarnessAugmentError } from '../harness/issues.js';
import type { Operator } from './operator.js';

/** The operators a plan may name, by id (`createRegistry`). */
export interface Registry {
  get(id: string): Operator | undefined;
  /** Like `get`, but a missing id is a configuration error that lists the known ids. */
  require(id: string): Operator;
  list(): Operator[];
}

/**
 * Builds a registry from operators.
 *
 * @example
 * const registry = createRegistry([...builtinOperators, myOperator]);
 */
export function createRegistry(operators: readonly Operator[]): Registry {
  const byId = new Map<string, Operator>();
  for (const operator of operators) {
    if (byId.has(operator.id)) {
      throw new HarnessAugmentError(`operator id "${operator.id}" is registered twice`, { kind: 'usage' });
    }
    byId.set(operator.id, operator);
  }
  const sorted = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    get: (id) => byId.get(id),
    require(id) {
      const operator = byId.get(id);
      if (operator) return operator;
      const near = sorted
        .filter((candidate) => candidate.id.split('/')[0] === id.split('/')[0])
        .map((candidate) => candidate.id);
      throw new HarnessAugmentError(
        `unknown operator "${id}"${near.length > 0 ? `; operators of that dimension: ${near.join(', ')}` : ''}`,
        { kind: 'usage' },
      );
    },
    list: () => [...sorted],
  };
}
