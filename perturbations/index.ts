// The built-in operators, by dimension. The registry is explicit data: pass these (and your own) to
// `createRegistry`; nothing registers itself on import.
import type { Operator } from '../src/kit/index.js';
import { hookOperators } from './hooks/index.js';
import { promptOperators } from './prompt/index.js';
import { skillContentOperators } from './skill-content/index.js';
import { skillIdOperators } from './skill-ids/index.js';
import { toolOperators } from './tools/index.js';

export { hookOperators, promptOperators, skillContentOperators, skillIdOperators, toolOperators };

/**
 * Every built-in operator.
 *
 * @example
 * const registry = createRegistry([...builtinOperators, myOperator]);
 */
export const builtinOperators: readonly Operator[] = [
  ...skillIdOperators,
  ...skillContentOperators,
  ...toolOperators,
  ...promptOperators,
  ...hookOperators,
] as Operator[];
