// The skill-ids operators, as an explicit list for registries.
import type { Operator } from '../../src/kit/index.js';
import { namespaceSkillIds } from './namespace.js';
import { renameSkillIds } from './rename.js';
import { renameSkillLoader } from './rename-loader.js';
import { reorderSkills } from './reorder.js';

export { namespaceSkillIds, renameSkillIds, renameSkillLoader, reorderSkills };

/**
 * Every built-in operator of the skill-ids dimension.
 *
 * @example
 * createRegistry([...skillIdOperators]);
 */
export const skillIdOperators: readonly Operator[] = [
  renameSkillIds,
  namespaceSkillIds,
  reorderSkills,
  renameSkillLoader,
];
