// perturbations/tools/rename.ts — renames registry tools (style: snake, camel, kebab, opaque, phrase); calls, results and every mention follow; exact inverse.

import { z } from 'zod';
import {
  affectedCount,
  certifies,
  defineOperator,
  findMentions,
  type Harness,
  type NameStyle,
  nameChecker,
  nameJudge,
  nameStyles,
  newName,
  type OperatorOutput,
  plainToolNamesInText,
  renameSymbols,
  type SymbolEntry,
  toolNamePatternsInText,
  toolTitleFollows,
  trajectoryFreeText,
  trajectoryReplies,
  VocabularyParam,
  withinVocabulary,
} from '../../src/kit/index.js';

const Params = z.object({
  style: z
    .enum(['snake', 'camel', 'kebab', 'opaque', 'phrase', 'mixed'])
    .default('mixed')
    .describe(
      'snake/camel/kebab: the name in that case, words swapped for synonyms; opaque: a masked name (`tool_7f3a`, `fn_12`); phrase: a descriptive phrase (`look_up_shipping_details`); mixed: a style per tool.',
    ),
  vocabulary: VocabularyParam,
});

/** Tools whose names the trajectory's replies or tool results mention (the relabel rewrites those texts). */
function mentionedInFreeText(harness: Harness, texts: readonly string[]): Set<string> {
  const symbols: SymbolEntry[] = harness.tools.items.map((tool) => ({
    kind: 'tool',
    name: tool.name,
    definedAt: [],
  }));
  const names = new Set<string>();
  for (const text of texts)
    for (const mention of findMentions({ path: [], text }, symbols)) names.add(mention.name);
  return names;
}

/**
 * Renames a share (= severity, at least one) of the registry tools in a naming style, through the symbol
 * table so every mention follows; the skill loader is never renamed (that is the skill-ids dimension). A
 * tool that a name pattern of a text matches ("Use 'list_*' tools", `get_*_by_id`) keeps its name, and no new
 * name matches one: the pattern's rule must keep covering the same tools. New
 * names are opaque or faithful (`nameJudge`): no function words, no word of another identifier, no domain
 * term swapped for a synonym, no synonym that names another action (`cancel_booking` is never `void_booking`
 * nor `revoke_booking`). A schema `title` that names the tool follows the new name (AgentDojo's "Input
 * schema for `get_balance`", FastMCP's `get_balanceArguments`, pydantic's "Get Balance"); a tool whose schema
 * title names it in another form keeps its name. MCP's display `title` (not offered to the model) follows
 * when generated from the name ("Read File" for `read_file`), and stays when it is the author's own.
 *
 * @example
 * const applied = await applyOperator(renameTools, harness, { rng: 'seed', severity: 0.5, params: { style: 'opaque' } });
 * // applied.harness.tools.items[0].name === 'tool_7f3a'; applied.relabel carries calls to the new names
 */
export const renameTools = defineOperator({
  id: 'tools/rename',
  // 4: phrase names take no description word after the name's own; no first item of an enumeration.
  // 5: a name after a namespace qualifier (`github:<tool>`) is a mention, and is renamed; no synonym that names
  // another action (add/insert, status/state: `git_add` is not `git_insert`).
  // 6: a plain name followed by the word "tool" ("the python tool") is a mention, and is renamed.
  // 7: a plain name a text writes in another form (bare, in code, in another case: "call fetch again",
  // "the Read tool" for `read`) is not renamed (`plainToolNamesInText`).
  // 8: no hold for reserve (a hold is provisional), no post for send (`nameSynonyms`); a schema title naming
  // the tool follows the rename ("Input schema for `get_balance`", AgentDojo), or the tool keeps its name where
  // it cannot exactly; a display title generated from the name ("Read File") follows.
  // 9: a tool that a name pattern a text writes addresses ("Use 'search_*' tools", `get_*_by_id`) keeps its
  // name, and no new name joins a family (`toolNamePatternsInText`).
  // 10: no void nor revoke for cancel (`nameSynonyms`: BFCL's `cancel_booking` became `void-booking`, and a
  // booking is voided only within its void window), no note for message, no remove for delete nor delete for
  // remove, no diff for compare, no account for user.
  // 11: fewer synonyms, none that names another thing (`nameSynonyms`: BFCL's `get_order_history` became
  // `get_purchase_history`, GitHub's `list_issue_fields` `list_problem_fields`; no data/info, price/cost …),
  // and none for a verb a particle follows (`check_in` is never `verify_in`).
  // 12: no synonym for a verb the name holds as a noun, after its first verb (a BFCL tool that gets a list of
  // people, `get_…_list`, became `get_…_enumerate`; `get_book` is never `get_reserve`: `verbsNotActing`), and
  // the loader's synonyms (use, activate, consult) for the loader only (`load_data` is never `use_data`).
  version: 12,
  dimension: 'tools',
  mode: 'exact',
  description: 'Renames registry tools in a naming style; calls, results and mentions follow; schemas stay.',
  params: Params,
  apply(harness, { rng, severity, params, trajectory, run }) {
    if (harness.tools.items.length === 0) return { skip: 'the registry has no tools to rename' };
    // A tool named by a plain word that a text writes where a rename cannot follow ("call fetch again",
    // "the Read tool" for `read`, `grep` the shell command) keeps its name.
    const unfollowable = plainToolNamesInText(harness, trajectoryReplies(trajectory));
    // A name pattern ("Use 'search_*' tools for targeted queries") addresses a family of tools: a renamed
    // member would leave the family, and a new name that matches would join it, so that the text's rule
    // covered other tools. Its members keep their names; no new name matches it.
    const families = toolNamePatternsInText(harness, trajectoryReplies(trajectory));
    // A tool whose schema title names it in a form the rename cannot rewrite exactly ("GetBalance") keeps it too.
    const tools = harness.tools.items.filter(
      (tool) => !unfollowable.has(tool.name) && !families.matched.has(tool.name) && toolTitleFollows(tool),
    );
    if (tools.length === 0)
      return {
        skip: 'every tool is a plain word that a text writes, a name pattern matches, or a schema title names, where a rename could not follow it',
      };
    const count = affectedCount(severity, tools.length);
    const chosen = rng.fork('choose').sample(tools, count);
    const build = (renamed: readonly (typeof tools)[number][]): OperatorOutput => {
      const checker = nameChecker(harness, trajectory);
      const isFree = withinVocabulary(
        (name: string) => !families.matches(name) && checker(name),
        params.vocabulary,
      );
      const names = rng.fork('names');
      const map: Record<string, string> = {};
      for (const tool of renamed) {
        const style: NameStyle =
          params.style === 'mixed' ? names.fork(`style-${tool.name}`).pick(nameStyles) : params.style;
        map[tool.name] = newName(
          {
            original: tool.name,
            description: tool.description,
            style,
            opaquePrefixes: ['tool', 'fn', 'func', 'api'],
            suffixes: ['tool', 'op', 'fn'],
            verbs: true,
            distinctive: true,
            judge: nameJudge(harness, { kind: 'tool', name: tool.name }),
          },
          names.fork(tool.name),
          isFree,
        );
      }
      return renameSymbols(harness, { tools: map }, { hookChecks: run.hookChecks });
    };
    const output = build(chosen);
    if (certifies({ base: harness, variant: output.harness, relabel: output.relabel, trajectory, run }))
      return output;
    // A reply or tool result names a renamed tool, and the rewritten text flips a hook (length, numbers, a
    // banned term): keep those names, and rename the others.
    const mentioned = mentionedInFreeText(harness, trajectoryFreeText(trajectory));
    const kept = chosen.filter((tool) => !mentioned.has(tool.name));
    const spare = tools.filter((tool) => !mentioned.has(tool.name));
    const fallback = kept.length > 0 || spare.length === 0 ? kept : [rng.fork('spare').pick(spare)];
    if (fallback.length === 0)
      return { skip: 'every tool is named in free text whose hooks a rename would flip' };
    return build(fallback);
  },
});
