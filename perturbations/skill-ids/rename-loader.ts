// skill-ids/rename-loader — renames the skill-loading tool and, optionally, its argument; skill ids, bodies and which skills are loaded stay.

import { z } from 'zod';
import {
  defineOperator,
  inVocabulary,
  mentionedInFreeText,
  nameJudge,
  plainToolNamesInText,
  renameSymbols,
  toolNamePatternsInText,
  trajectoryReplies,
  VocabularyParam,
  withinVocabulary,
} from '../../src/kit/index.js';
import { createNameGuard } from './skill-names.js';

const toolNames = [
  'use_skill',
  'get_skill',
  'skill_lookup',
  'activate_skill',
  'open_skill',
  'read_skill',
  'fetch_skill',
  'load_rules',
  'skill_loader',
  'consult_skill',
  'loadSkill',
  'useSkill',
  'getSkill',
  'skill-load',
] as const;
const argumentNames = ['skill', 'name', 'id', 'skill_name', 'skillId', 'skill_key', 'which'] as const;

/**
 * Renames the skill loader (`load_skill` → `use_skill`, `get_skill`, `skill_lookup`, `activate_skill`, …) and,
 * with probability = severity (or always, when `argument` or `renameArgument: true` is given), its argument
 * (`skill_id` → `skill`, `name`, `id`, …). Every mention of the loader in the harness, and every load of
 * trajectories, follows, with an exact inverse. Skips when a given trajectory names the loader in a reply or
 * a tool result (renaming would change text that hooks judge) or when no fresh name is left. Drawn names are
 * opaque or faithful (`nameJudge`); names given as params are the caller's.
 *
 * @example
 * await applyOperator(renameSkillLoader, travelHarness(), { rng: 'seed', params: { tool: 'use_skill', argument: 'skill' } });
 * // load_skill({ skill_id }) → use_skill({ skill })
 */
export const renameSkillLoader = defineOperator({
  id: 'skill-ids/rename-loader',
  // 4: no word from the first item of an enumeration in the description (the name rule).
  // 5: a name after a namespace qualifier (`plugin:<tool>`) is a mention, and is renamed; a harness without
  // skills (no loader offered) is skipped.
  // 6: a plain loader name followed by the word "tool" ("the load tool") is a mention, and is renamed.
  // 7: a plain loader name a text writes bare, in code or in another case is not renamed.
  // 8: a loader that a name pattern of a text matches (`load_*`) is not renamed, and no new name matches one.
  // 9: no `skill_key` for `skill_id` (`nameSynonyms`: no key for id, a key is an API key or a store's key).
  version: 9,
  dimension: 'skill-ids',
  mode: 'exact',
  description: 'Renames the skill-loading tool and optionally its argument; loads and mentions follow.',
  params: z.object({
    tool: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    argument: z
      .string()
      .regex(/^\S(?:[^\r\n]*\S)?$/u)
      .optional(),
    renameArgument: z.boolean().optional(),
    vocabulary: VocabularyParam,
  }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const loader = harness.skills.loader;
    // Without skills the loader is never offered: renaming it changes nothing the agent can use.
    if (harness.skills.items.length === 0)
      return { skip: 'the harness has no skills, so no loader is offered' };
    if (plainToolNamesInText(harness, trajectoryReplies(trajectory)).has(loader.tool))
      return { skip: `a text writes "${loader.tool}" where a rename could not follow it` };
    // A name pattern ("Use 'load_*' tools") addresses a family of tools: the loader neither leaves nor joins one.
    const families = toolNamePatternsInText(harness, trajectoryReplies(trajectory));
    if (families.matched.has(loader.tool))
      return { skip: `a name pattern of a text matches "${loader.tool}", which a rename could not follow` };
    if (mentionedInFreeText(trajectory, harness, [loader.tool], 'tool').size > 0) {
      return {
        skip: `the trajectory names "${loader.tool}" in a reply or a tool result; renaming would change it`,
      };
    }
    const accept = withinVocabulary(
      createNameGuard(harness, { trajectory, freed: [loader.tool] }),
      params.vocabulary,
    );
    const toolJudge = nameJudge(harness, { kind: 'tool', name: loader.tool });
    const argumentJudge = nameJudge(harness, { kind: 'parameter', name: loader.argument });
    const tool =
      params.tool ??
      rng
        .fork('tool')
        .shuffle(toolNames)
        .find((name) => toolJudge.accepts(name) && !families.matches(name) && accept(name));
    if (tool === undefined) return { skip: 'every candidate loader name is already used by the harness' };
    if (params.tool !== undefined && !accept(params.tool)) {
      return { skip: `"${params.tool}" is already used by the harness` };
    }
    const renameArgument =
      params.argument !== undefined || (params.renameArgument ?? rng.fork('argument?').chance(severity));
    let argument: string | undefined;
    if (renameArgument) {
      argument =
        params.argument ??
        rng
          .fork('argument')
          .shuffle(argumentNames)
          .find(
            (name) =>
              name !== loader.argument &&
              argumentJudge.accepts(name) &&
              inVocabulary(name, params.vocabulary),
          );
    }
    return renameSymbols(
      harness,
      {
        tools: { [loader.tool]: tool },
        ...(argument !== undefined && argument !== loader.argument ? { loaderArgument: argument } : {}),
      },
      { hookChecks: run.hookChecks },
    );
  },
});
