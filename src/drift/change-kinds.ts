// The kinds of real harness edits `hsa drift` names, as data: each kind's dimension, whether an exact
// relabel carries a trajectory across it, and the built-in operators whose variants make an edit of that
// kind. One table, read by the describer (preservation), the coverage check (operators) and the docs.
import type { Dimension } from '../augment/operator.js';

/** What one kind of edit is, in the library's vocabulary. */
export interface ChangeKindSpec {
  dimension: Dimension;
  /**
   * `true`: an exact relabel carries a trajectory across it (a rename, a reorder, a rewording that keeps the
   * protected content and the negations); `false`: the task changed (regenerate); `'conditional'`: exact for
   * trajectories whose hook decisions stay (budgets and thresholds, as `hooks/vary-budgets` checks).
   */
  preserving: boolean | 'conditional';
  /** Built-in operators whose variants make an edit of this kind (none: no operator makes it). */
  operators: readonly string[];
  /** One line for the docs and the reasons. */
  summary: string;
}

const kind = (
  dimension: Dimension,
  preserving: ChangeKindSpec['preserving'],
  operators: readonly string[],
  summary: string,
): ChangeKindSpec => ({ dimension, preserving, operators, summary });

/**
 * Every kind of edit the describer reports.
 *
 * @example
 * changeKinds['skill-renamed'].operators // ['skill-ids/rename', 'skill-ids/namespace']
 */
export const changeKinds = {
  // skill ids
  'skill-renamed': kind(
    'skill-ids',
    true,
    ['skill-ids/rename', 'skill-ids/namespace'],
    'skills renamed (same kind, body and description under a new id)',
  ),
  'skills-reordered': kind('skill-ids', true, ['skill-ids/reorder'], 'skill catalog reordered'),
  'loader-renamed': kind(
    'skill-ids',
    true,
    ['skill-ids/rename-loader'],
    'skill-loading tool or its argument renamed',
  ),
  'skill-added': kind('skill-ids', false, [], 'skill added'),
  'skill-removed': kind('skill-ids', false, [], 'skill removed'),
  // skill content
  'rules-reordered': kind(
    'skill-content',
    true,
    ['skill-content/reorder-rules'],
    'the same rules in another order',
  ),
  'rules-reworded': kind(
    'skill-content',
    true,
    ['skill-content/paraphrase-lexicon', 'skill-content/paraphrase-model'],
    'rules reworded, protected content and negations kept',
  ),
  'rules-list-style-changed': kind(
    'skill-content',
    true,
    ['skill-content/list-style'],
    'rule list written in another style',
  ),
  'skill-description-reworded': kind(
    'skill-content',
    true,
    ['skill-content/paraphrase-lexicon', 'skill-content/paraphrase-model'],
    'skill description reworded, protected content kept',
  ),
  'preamble-added': kind(
    'skill-content',
    true,
    ['skill-content/preamble'],
    'a sentence without rules or protected content added before the rules',
  ),
  'rules-added': kind('skill-content', false, [], 'rules added'),
  'rules-removed': kind('skill-content', false, [], 'rules removed'),
  'rules-changed': kind(
    'skill-content',
    false,
    [],
    'rules rewritten with other numbers, code, quotes or negations',
  ),
  'skill-kind-changed': kind('skill-content', false, [], 'skill kind or risk changed'),
  // tools
  'tool-renamed': kind('tools', true, ['tools/rename'], 'tools renamed (same parameters)'),
  'parameter-renamed': kind('tools', true, ['tools/rename-parameters'], 'parameters renamed (same schema)'),
  'properties-reordered': kind('tools', true, ['tools/reorder-properties'], 'parameter properties reordered'),
  'tools-reordered': kind('tools', true, ['tools/reorder'], 'tool registry reordered'),
  'tool-description-reworded': kind(
    'tools',
    true,
    ['tools/reword-descriptions'],
    'tool or parameter descriptions reworded, protected content kept',
  ),
  'optional-parameter-added': kind(
    'tools',
    true,
    ['tools/add-optional-parameters'],
    'an optional parameter added',
  ),
  'tool-added': kind('tools', false, [], 'tool added'),
  'tool-removed': kind('tools', false, [], 'tool removed'),
  'parameter-added': kind('tools', false, [], 'required parameter added'),
  'parameter-removed': kind('tools', false, [], 'parameter removed'),
  'parameter-retyped': kind('tools', false, [], 'parameter type changed'),
  'tool-description-changed': kind(
    'tools',
    false,
    [],
    'description rewritten with other numbers, code, quotes or negations',
  ),
  'schema-changed': kind('tools', false, [], 'parameter schema constraints changed (enum, required, bounds)'),
  // prompt
  'sections-reordered': kind('prompt', true, ['prompt/reorder-sections'], 'prompt sections reordered'),
  'section-retitled': kind('prompt', true, ['prompt/retitle'], 'prompt sections retitled'),
  'heading-style-changed': kind('prompt', true, ['prompt/heading-style'], 'prompt heading style changed'),
  'list-style-changed': kind('prompt', true, ['prompt/list-style'], 'prompt list style changed'),
  'whitespace-changed': kind(
    'prompt',
    true,
    ['prompt/whitespace-noise'],
    'only whitespace of templates changed',
  ),
  'section-reworded': kind(
    'prompt',
    true,
    [],
    'template text reworded, placeholders and protected content kept',
  ),
  'section-added': kind('prompt', false, [], 'prompt section added'),
  'section-removed': kind('prompt', false, [], 'prompt section removed'),
  'section-changed': kind(
    'prompt',
    false,
    [],
    'template rewritten with other placeholders, numbers, code or quotes',
  ),
  'section-pin-changed': kind('prompt', true, [], 'a section pinned or unpinned'),
  // hooks
  'budget-changed': kind('hooks', 'conditional', ['hooks/vary-budgets'], 'retry budgets changed'),
  'threshold-changed': kind(
    'hooks',
    'conditional',
    ['hooks/vary-budgets'],
    'length or tool-call thresholds changed',
  ),
  'feedback-reworded': kind(
    'hooks',
    true,
    ['hooks/reword-feedback'],
    'retry feedback reworded, placeholders and protected content kept',
  ),
  'hooks-reordered': kind('hooks', true, ['hooks/reorder'], 'hooks reordered'),
  'hook-enabled': kind('hooks', false, [], 'hook enabled'),
  'hook-disabled': kind('hooks', false, [], 'hook disabled'),
  'hook-added': kind('hooks', false, [], 'hook added'),
  'hook-removed': kind('hooks', false, [], 'hook removed'),
  'hook-check-changed': kind('hooks', false, [], 'hook check, stage, scope or action changed'),
  'feedback-changed': kind(
    'hooks',
    false,
    [],
    'feedback rewritten with other placeholders, numbers or quotes',
  ),
} as const satisfies Record<string, ChangeKindSpec>;

export type ChangeKind = keyof typeof changeKinds;
