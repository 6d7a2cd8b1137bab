// perturbations/tools/rename-parameters.ts — renames tool parameters (nested ones too) with `required` and mentions following; argument keys are relabelled; values, types and constraints stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  hasPlainProperties,
  isRecord,
  type NameStyle,
  nameChecker,
  nameJudge,
  nameStyles,
  newName,
  nodeAt,
  type ParameterRename,
  parameterNamesInOtherTools,
  parameterNamesInProse,
  type RelabelStep,
  renameSymbols,
  trajectoryReplies,
  unresolvedCodeNames,
  VocabularyParam,
  walkSchema,
  withinVocabulary,
} from '../../src/kit/index.js';

const Params = z.object({
  style: z
    .enum(['snake', 'camel', 'kebab', 'opaque', 'phrase', 'mixed'])
    .default('mixed')
    .describe(
      'snake/camel/kebab: the name in that case, words swapped for synonyms; opaque: a masked name (`arg_3f2c`, `p_7`); phrase: words of its description (`number_of_pieces`); mixed: a style per name.',
    ),
  vocabulary: VocabularyParam,
});

/** Every place one parameter name is defined, across the registry. */
interface NameGroup {
  name: string;
  description?: string;
  occurrences: Array<{ tool: string; path: string[] }>;
}

/**
 * One step per key rename. `rename_arguments` applies a step's renames in one pass over the input text
 * and its inverse keeps each rename's path in the old names, so a step that renames both `filters` and
 * `filters.max_stops` cannot be undone in one pass; as a chain of single renames (deepest first) it can.
 */
function splitRenames(step: RelabelStep): RelabelStep[] {
  if (step.type !== 'rename_arguments') return [step];
  const key = (path: readonly string[]) => path.join('\u0000');
  const renamedPaths = new Set(step.renames.map((rename) => key([...rename.path, rename.from])));
  const underRenamed = step.renames.some((rename) =>
    rename.path.some((_, index) => renamedPaths.has(key(rename.path.slice(0, index + 1)))),
  );
  if (!underRenamed) return [step];
  return step.renames.map((rename) => ({ type: 'rename_arguments', tool: step.tool, renames: [rename] }));
}

/**
 * Renames a share (= severity, at least one) of the parameter names of the registry, nested object
 * properties and array item properties included. A name is renamed the same way in every tool that
 * defines it, so that a shared mention (`` `link_id` ``) stays unambiguous. Names are left alone when a
 * tool's schema refers to property names outside `properties`/`required` (`patternProperties`,
 * `dependentRequired`, combinators, `$ref`, …), when a harness text writes the name in code that the
 * symbol table cannot resolve (`` `body.height_cm` ``), since that reference would dangle, when prose names
 * it as a parameter (`parameterNamesInProse`: "the 'head' parameter", "The "body" and "event" parameters", a
 * quoted "'delete: true'", "path (string)", "instead of ref"), or when a tool that does not define it writes it in code in
 * its own texts, where it is mostly an object's key (`parameterNamesInOtherTools`). New names are opaque or
 * faithful (`nameJudge`), with no synonym that names another thing (`message` is never `note`).
 *
 * @example
 * const applied = await applyOperator(renameParameters, harness, { rng: 'seed', severity: 1, params: { style: 'camel' } });
 * // find_flights(origin, destination, …) becomes find_flights(originParam, target, …); calls follow
 */
export const renameParameters = defineOperator({
  id: 'tools/rename-parameters',
  // 2: new names are opaque or faithful (`nameJudge`). 3: leaves alone a schema with a name-sensitive keyword
  // in any subschema (`hasPlainProperties`), not only along properties and items.
  // 5: a phrase from the description is the run of content words it opens with, nothing from further on.
  // 6: a phrase must end on the name's head word (no `comma_separated` for `secret_type`), and a name tools
  // describe differently takes no phrase (no `blob_sha` for every `sha`). 7: a phrase keeps every other word
  // of the name too (no `unique_identifier` for `customer_id`), and no synonym that names another thing
  // (`max_total` for git's `max_count`, `arrival` for `destination`); a title generated from the old name
  // ("Max Count") follows the new one.
  // 8: a name that prose names as a parameter ("the 'head' parameter", "dryRun set to true") stays: the rename
  // could not follow it there (`parameterNamesInProse`).
  // 9: a name that another tool's text writes in code stays: there it is mostly an object's key
  // (`parameterNamesInOtherTools`: AgentDojo's send_email lists a calendar event's `title`, `start_time`);
  // no hold for reserve, no post for send (`nameSynonyms`).
  // 10: a name a text quotes stays ("'value'", "'delete: true'", the tool's own in its texts, any in the
  // prompt's), so does every name of a list the word "parameters" closes ("The "body" and "event" parameters"),
  // a name followed by its type ("path (string)") or by one of its values ("method 'create'"), and a tool's
  // own name written where it can only be the parameter ("instead of ref", "unless body is provided").
  // 11: a phrase from the description keeps the name's number (no `issue_field` for GitHub's `issue_fields`).
  // 12: no note for message (`nameSynonyms`: BFCL's `contact_customer_support.message` became `note`; a note
  // annotates a record, a message is sent), no void nor revoke for cancel, no remove for delete nor delete for
  // remove, no diff for compare, no account for user.
  // 13: fewer synonyms, none that names another thing (`nameSynonyms`: BFCL's `order_type` became
  // `order_category`, `travel_class` `travel_tier`, GitHub's sort `order` `purchase`; no name/label, date/day …),
  // and none for a verb a particle follows (a hotel's `check_in` date is never `verify_in`).
  // 14: no synonym for a verb of a parameter's name, which names a thing (BFCL's `show_type`, `show_date` and
  // `show_time` of a movie screening became `display_type`, `display_date`, `display_time`: `verbsNotActing`).
  version: 14,
  dimension: 'tools',
  mode: 'exact',
  description: 'Renames tool parameters, nested ones too; arguments, `required` and mentions follow.',
  params: Params,
  apply(harness, { rng, severity, params, trajectory, run }) {
    const unresolved = [
      ...unresolvedCodeNames(harness),
      ...parameterNamesInProse(harness, trajectoryReplies(trajectory), run.hookChecks),
      ...parameterNamesInOtherTools(harness),
    ];
    const groups = new Map<string, NameGroup>();
    const blocked = new Set<string>(unresolved);
    for (const tool of harness.tools.items) {
      const plain = hasPlainProperties(tool.parameters);
      walkSchema(tool.parameters, (node, path) => {
        if (path.length === 0 || path.at(-1) === '[]') return;
        const name = path.at(-1) as string;
        if (!plain) blocked.add(name);
        const group = groups.get(name) ?? { name, occurrences: [] };
        const description = typeof node.description === 'string' ? node.description : undefined;
        // A name shared by tools that describe it differently takes no phrase from one description: `sha`
        // is a blob's SHA in one tool and a commit's in another.
        if (group.occurrences.length === 0) group.description = description;
        else if (group.description !== description) group.description = undefined;
        group.occurrences.push({ tool: tool.name, path });
        groups.set(name, group);
      });
    }
    const candidates = [...groups.values()].filter((group) => !blocked.has(group.name));
    if (candidates.length === 0) return { skip: 'no tool parameter can be renamed safely' };
    const count = affectedCount(severity, candidates.length);
    const chosen = rng.fork('choose').sample(candidates, count);
    const isFree = withinVocabulary(nameChecker(harness, trajectory), params.vocabulary);
    const names = rng.fork('names');
    const renames: ParameterRename[] = [];
    for (const group of chosen) {
      const style: NameStyle =
        params.style === 'mixed' ? names.fork(`style-${group.name}`).pick(nameStyles) : params.style;
      const to = newName(
        {
          original: group.name,
          ...(group.description !== undefined ? { description: group.description } : {}),
          style,
          opaquePrefixes: ['arg', 'p', 'param', 'field'],
          suffixes: ['value', 'field', 'input', 'param'],
          verbs: false,
          distinctive: false,
          judge: nameJudge(harness, { kind: 'parameter', name: group.name }),
        },
        names.fork(group.name),
        isFree,
      );
      for (const occurrence of group.occurrences) {
        // The holder must be a plain object schema whose properties hold the name (always true here).
        const holder = nodeAt(
          harness.tools.items.find((tool) => tool.name === occurrence.tool)?.parameters,
          occurrence.path.slice(0, -1),
        );
        if (holder && isRecord(holder.properties)) renames.push({ ...occurrence, to });
      }
    }
    const output = renameSymbols(harness, { parameters: renames }, { hookChecks: run.hookChecks });
    return { harness: output.harness, relabel: { steps: output.relabel.steps.flatMap(splitRenames) } };
  },
});
