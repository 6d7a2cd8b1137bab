// perturbations/tools/index.ts — the operators of the tools dimension, as an explicit list (no side effects on import).
import type { Operator } from '../../src/kit/index.js';
import { addDistractors } from './add-distractors.js';
import { addOptionalParameters } from './add-optional-parameters.js';
import { changeSchemaStyle } from './change-schema-style.js';
import { dropUnused } from './drop-unused.js';
import { nestArguments } from './nest-arguments.js';
import { renameTools } from './rename.js';
import { renameParameters } from './rename-parameters.js';
import { reorderTools } from './reorder.js';
import { reorderProperties } from './reorder-properties.js';
import { rewordDescriptions } from './reword-descriptions.js';

export {
  addDistractors,
  addOptionalParameters,
  changeSchemaStyle,
  dropUnused,
  nestArguments,
  renameParameters,
  renameTools,
  reorderProperties,
  reorderTools,
  rewordDescriptions,
};

/**
 * The operators of the tools dimension, for a registry (`createRegistry([...toolOperators, …])`).
 *
 * @example
 * toolOperators.map((operator) => operator.id) // ['tools/rename', 'tools/rename-parameters', …]
 */
export const toolOperators: readonly Operator[] = Object.freeze([
  renameTools,
  renameParameters,
  reorderProperties,
  rewordDescriptions,
  addDistractors,
  dropUnused,
  reorderTools,
  addOptionalParameters,
  nestArguments,
  changeSchemaStyle,
]);
