// perturbations/hooks/index.ts — the hook-behaviour operators, as an explicit list.
import type { Operator } from '../../src/kit/index.js';
import { disableUntriggered } from './disable-untriggered.js';
import { injectRecovery } from './inject-recovery.js';
import { reorderHooks } from './reorder.js';
import { rewordFeedback } from './reword-feedback.js';
import { varyBudgets } from './vary-budgets.js';

export { disableUntriggered, injectRecovery, reorderHooks, rewordFeedback, varyBudgets };

/**
 * The operators of the `hooks` dimension (hook behaviour), in a fixed order.
 *
 * @example
 * const registry = createRegistry([...promptOperators, ...hookOperators]);
 */
export const hookOperators: readonly Operator[] = [
  varyBudgets,
  rewordFeedback,
  reorderHooks,
  disableUntriggered,
  injectRecovery,
];
