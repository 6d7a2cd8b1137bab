// perturbations/hooks/reword-feedback.ts — rewords and reformats the feedback templates of retry hooks; checks, budgets and outcomes stay.

import { z } from 'zod';
import {
  affectedCount,
  certifies,
  defineOperator,
  type Hook,
  type HookCheck,
  identityRelabel,
  templatePlaceholderSpans,
  variantHolds,
} from '../../src/kit/index.js';

const formats = ['tagged', 'please-fix', 'attempt', 'bullets', 'json'] as const;
type FeedbackFormat = (typeof formats)[number];

/** The values each check adds to the feedback data, as JSON members built with the `json` helper. */
const checkMembers: Record<HookCheck['type'], readonly string[]> = {
  banned_terms: ['"found": {{json found}}'],
  max_length: ['"length": {{length}}', '"max": {{max}}'],
  regex: ['"pattern": {{json pattern}}', '"match": {{json match}}'],
  skill_loaded: ['"kind": {{json kind}}'],
  tool_arguments: ['"tool": {{json tool}}', '"errors": {{json errors}}'],
  max_tool_calls: ['"count": {{count}}', '"max": {{max}}'],
  numbers_grounded: ['"numbers": {{json numbers}}'],
  json_shape: ['"errors": {{json errors}}'],
  // What a custom check provides is in its registration; the JSON form names only the common variables.
  custom: [],
};

/** Variables that always render as plain numbers, so they may stand inside a JSON string. */
const numericVariables = new Set(['attempt', 'maxRetries', 'length', 'max', 'count']);

/** Splits a template into prose and `{{ }}` pieces. */
function pieces(template: string): Array<{ code: boolean; text: string }> {
  const parts: Array<{ code: boolean; text: string }> = [];
  let from = 0;
  for (const [start, end] of templatePlaceholderSpans(template)) {
    if (start > from) parts.push({ code: false, text: template.slice(from, start) });
    parts.push({ code: true, text: template.slice(start, end) });
    from = end;
  }
  if (from < template.length) parts.push({ code: false, text: template.slice(from) });
  return parts;
}

/** The template as the inside of a JSON string, when every value it renders is a number; else undefined. */
function asJsonString(template: string): string | undefined {
  let out = '';
  for (const piece of pieces(template)) {
    if (piece.code) {
      const name = piece.text.replace(/^\{\{~?\s*/, '').replace(/\s*~?\}\}$/, '');
      if (!numericVariables.has(name)) return undefined;
      out += piece.text;
    } else {
      // A backslash before `{{` would escape the mustache; such templates keep their text out of the JSON.
      if (piece.text.includes('\\')) return undefined;
      out += JSON.stringify(piece.text).slice(1, -1);
    }
  }
  return out;
}

/** Sentences of a template, cut after `.`, `!`, `?` (or their CJK forms) in prose only. */
function sentences(template: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const piece of pieces(template)) {
    if (piece.code) {
      current += piece.text;
      continue;
    }
    const parts = piece.text.split(/(?<=[.!?])\s+|(?<=[。！？])\s*/u);
    parts.forEach((part, index) => {
      current += part;
      if (index < parts.length - 1) {
        out.push(current.trim());
        current = '';
      }
    });
  }
  if (current.trim() !== '') out.push(current.trim());
  return out.filter((sentence) => sentence !== '');
}

function reworded(hook: Hook, feedback: string, format: FeedbackFormat): string {
  const text = feedback.trim();
  switch (format) {
    case 'tagged':
      return `[hook {{hook}}] ${text}`;
    case 'please-fix':
      return `Please fix: ${text}`;
    case 'attempt':
      return `Attempt {{attempt}} was rejected by {{hook}}. ${text}`;
    case 'bullets':
      return `Rejected by {{hook}}:\n${sentences(text)
        .map((sentence) => `- ${sentence}`)
        .join('\n')}`;
    case 'json': {
      // One member a line: a mustache closing right before the object's `}` would read as `}}}`.
      const fix = asJsonString(text);
      const members = [
        '"hook": {{json hook}}',
        '"problem": {{json reason}}',
        ...checkMembers[hook.check.type],
        '"attempt": {{attempt}}',
        '"maxRetries": {{maxRetries}}',
        ...(fix === undefined ? [] : [`"fix": "${fix}"`]),
      ];
      return `{\n  ${members.join(',\n  ')}\n}`;
    }
  }
}

/**
 * Rewords and reformats the feedback templates of retry hooks from built-in forms: tagged
 * (`[hook <id>] …`), "Please fix: …", an attempt line, bullets, or JSON
 * (`{"hook":…,"problem":…,…}`). The forms use only the variables every check provides (`hook`, `reason`,
 * `attempt`, `maxRetries`) and the check's own; feedback turns of trajectories are re-derived from them.
 * A feedback whose words render a name or a list takes no JSON form, which would drop them. Severity is
 * the share of retry hooks reworded. Skips when no hook retries.
 *
 * @example
 * const applied = await applyOperator(rewordFeedback, harness, { rng: 'seed', params: { format: 'tagged' } });
 * // feedback 'Remove: {{join found ", "}}' becomes '[hook {{hook}}] Remove: {{join found ", "}}'
 */
export const rewordFeedback = defineOperator({
  id: 'hooks/reword-feedback',
  // 2: no JSON form for a feedback whose words render a name or a list: they were dropped, leaving only `reason`.
  version: 2,
  dimension: 'hooks',
  mode: 'exact',
  description: 'Rewords and reformats the feedback of retry hooks; checks, budgets and outcomes stay.',
  params: z.object({ format: z.enum([...formats, 'any']).default('any') }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const retrying = harness.hooks.items.flatMap((hook, index) =>
      hook.onFail.action === 'retry' ? [index] : [],
    );
    if (retrying.length === 0) return { skip: 'no hook retries with feedback' };
    // The JSON form carries the feedback's own words only as its `fix` member, which holds numbers alone
    // (`asJsonString`): a feedback that renders a name or a list ("Load `{{skill}}` before you call
    // `cancel_pending_order`.") would lose what it asks the model to do, so it takes another form.
    const keepsWords = (index: number): boolean => {
      const hook = harness.hooks.items[index] as Hook;
      return hook.onFail.action === 'retry' && asJsonString(hook.onFail.feedback.trim()) !== undefined;
    };
    const eligible = params.format === 'json' ? retrying.filter(keepsWords) : retrying;
    if (eligible.length === 0)
      return {
        skip: 'the JSON form would drop the words of every retry feedback, which render names or lists',
      };
    const chosen = rng.fork('hooks').sample(eligible, affectedCount(severity, eligible.length));
    // Checked while every other part is still the base's own object, so that only the hooks are parsed
    // and checked (`variantHolds`).
    const items = [...harness.hooks.items];
    for (const index of chosen) {
      const hook = items[index] as Hook;
      if (hook.onFail.action !== 'retry') continue;
      const feedback = hook.onFail.feedback;
      const options =
        params.format === 'any'
          ? formats.filter((format) => format !== 'json' || keepsWords(index))
          : [params.format];
      const format = rng.fork(`format/${index}`).pick(options);
      items[index] = { ...hook, onFail: { ...hook.onFail, feedback: reworded(hook, feedback, format) } };
    }
    const checked = { ...harness, hooks: { ...harness.hooks, items } };
    if (!variantHolds(harness, checked, ['hooks'], { hookChecks: run.hookChecks }))
      return { skip: 'a reworded feedback template does not compile' };
    const variant = checked;
    if (trajectory && !certifies({ base: harness, variant, trajectory, run })) {
      return { skip: 'the reworded feedback does not render for the trajectory' };
    }
    return { harness: variant, relabel: identityRelabel };
  },
});
