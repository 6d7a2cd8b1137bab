// Rules a harness must keep beyond its shape: unique ids, a loader that does not shadow a tool, tool schemas
// that compile, hook checks at stages where they mean something and naming tools and skills that exist,
// custom checks that are registered, templates and linear-time patterns that compile.

import { BoundedCache } from './bounded-cache.js';
import { customParams, type HookCheckRegistry, noHookChecks } from './hook-checks.js';
import { unknownTypeIssues } from './importers/schema-type-names.js';
import { HarnessAugmentError, type Issue, quote, valueAtPath } from './issues.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { compileLinearPattern } from './linear-pattern.js';
import {
  checkStages,
  type Harness,
  type HarnessPartName,
  type HookCheck,
  toolScopedStages,
} from './schema.js';
import { checkTemplate, templateVariables } from './template-engine.js';

/** What `checkHarness` checks besides the harness itself: the custom hook checks it may name. */
export interface CheckHarnessOptions {
  /** The custom hook checks the harness may name (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
}

function duplicates<T>(
  items: readonly T[],
  key: (item: T) => string,
  path: (index: number) => Issue['path'],
  what: string,
) {
  const seen = new Map<string, number>();
  const issues: Issue[] = [];
  items.forEach((item, index) => {
    const value = key(item);
    const first = seen.get(value);
    if (first === undefined) seen.set(value, index);
    else
      issues.push({
        code: 'duplicate_id',
        path: path(index),
        message: `${what} ${quote(value)} is already defined at index ${first}`,
      });
  });
  return issues;
}

type HookChecks = NonNullable<CheckHarnessOptions['hookChecks']>;

let variableReads = 0;
/**
 * How many feedback templates this process has parsed for the names they read (cache misses): tests count
 * work with it.
 *
 * @example
 * const before = templateVariableReads(); checkHarness(harness); templateVariableReads() - before
 */
export function templateVariableReads(): number {
  return variableReads;
}

// Every variant of a harness holds the same feedback templates, and parsing one is most of the hook rules'
// time: the names a template reads are kept under its text.
// Pure function of content across runs: the names a feedback template reads, by its text.
const readsByTemplate = new BoundedCache<string, readonly string[]>(
  1 << 20,
  (template, names) => 2 * template.length + 32 * names.length + 64,
  'check-harness.readsByTemplate',
);
function feedbackReads(template: string): readonly string[] {
  const known = readsByTemplate.get(template);
  if (known) return known;
  variableReads++;
  return readsByTemplate.set(template, templateVariables(template));
}

/** Unique skill, tool, hook and section ids: each rule reads one part. */
const skillIdRule = (harness: Harness) =>
  duplicates(
    harness.skills.items,
    (skill) => skill.id,
    (i) => ['skills', 'items', i, 'id'],
    'skill id',
  );
const toolNameRule = (harness: Harness) =>
  duplicates(
    harness.tools.items,
    (tool) => tool.name,
    (i) => ['tools', 'items', i, 'name'],
    'tool name',
  );
const hookIdRule = (harness: Harness) =>
  duplicates(
    harness.hooks.items,
    (hook) => hook.id,
    (i) => ['hooks', 'items', i, 'id'],
    'hook id',
  );
const sectionIdRule = (harness: Harness) =>
  duplicates(
    harness.prompt.sections,
    (section) => section.id,
    (i) => ['prompt', 'sections', i, 'id'],
    'section id',
  );

/** Tools: not named as the skill loader, parameters an object schema that compiles. */
function toolRules(harness: Harness): Issue[] {
  const issues: Issue[] = [];
  const loader = harness.skills.loader.tool;
  harness.tools.items.forEach((tool, index) => {
    if (tool.name === loader) {
      issues.push({
        code: 'loader_shadowed',
        path: ['tools', 'items', index, 'name'],
        message: `tool "${tool.name}" has the name of the skill loader; rename one of them`,
      });
    }
    if (tool.parameters.type !== 'object') {
      issues.push({
        code: 'invalid_tool_parameters',
        path: ['tools', 'items', index, 'parameters', 'type'],
        message: 'tool parameters must be a JSON Schema of type "object"',
      });
    }
    // A type JSON Schema does not know ("float", "dict") is named at its path, as the importers name it,
    // not in the metaschema's wording.
    const unknownTypes = unknownTypeIssues(tool.parameters, ['tools', 'items', index, 'parameters']);
    issues.push(...unknownTypes);
    const compiled = unknownTypes.length > 0 ? { ok: true as const } : compileJsonSchema(tool.parameters);
    if (!compiled.ok) {
      issues.push({
        code: 'invalid_json_schema',
        path: ['tools', 'items', index, 'parameters'],
        message: `parameters of "${tool.name}" are not a valid JSON Schema: ${compiled.error}`,
      });
    }
  });
  return issues;
}

/** Hooks: checks at stages where they mean something, naming tools and skills that exist, sound feedback. */
function hookRules(harness: Harness, hookChecks: HookChecks): Issue[] {
  const issues: Issue[] = [];
  const loader = harness.skills.loader.tool;
  const toolNames = new Set([loader, ...harness.tools.items.map((tool) => tool.name)]);
  const skillIds = new Set(harness.skills.items.map((skill) => skill.id));
  harness.hooks.items.forEach((hook, index) => {
    const at = (...rest: Issue['path']) => ['hooks', 'items', index, ...rest];
    const { check, onFail } = hook;
    const custom = check.type === 'custom' ? hookChecks.get(check.name) : undefined;
    if (check.type === 'custom' && !custom) {
      issues.push({
        code: 'unknown_hook_check',
        path: at('check', 'name'),
        message: `no custom hook check "${check.name}" is registered (pass it in hookChecks, see createHookCheckRegistry)`,
      });
    }
    const stages = custom ? custom.stages : checkStages[check.type];
    if ((check.type !== 'custom' || custom) && !stages.includes(hook.stage)) {
      issues.push({
        code: 'check_stage_mismatch',
        path: at('stage'),
        message: `a "${check.type === 'custom' ? check.name : check.type}" check runs at ${stages.join(', ')}, not at ${hook.stage}`,
      });
    }
    if (hook.tools !== undefined) {
      if (!toolScopedStages.includes(hook.stage))
        issues.push({
          code: 'tool_scope_stage',
          path: at('tools'),
          message: `only ${toolScopedStages.join(' and ')} hooks can be scoped to tools, not a ${hook.stage} hook`,
        });
      hook.tools.forEach((name, position) => {
        if (name === loader && hook.stage === 'post_tool')
          issues.push({
            code: 'tool_scope_stage',
            path: at('tools', position),
            message: `a skill load returns the skill's body and runs no post_tool hook; scope "${name}" at pre_tool`,
          });
        else if (!toolNames.has(name))
          issues.push({
            code: 'unknown_tool',
            path: at('tools', position),
            message: `tool "${name}" is neither in the tool registry nor the skill loader`,
          });
        else if (hook.tools?.indexOf(name) !== position)
          issues.push({
            code: 'duplicate_id',
            path: at('tools', position),
            message: `tool "${name}" is listed twice`,
          });
      });
    }
    if (check.type === 'skill_loaded' && check.skill !== undefined && !skillIds.has(check.skill)) {
      issues.push({
        code: 'unknown_skill',
        path: at('check', 'skill'),
        message: `skill "${check.skill}" does not exist in the harness`,
      });
    }
    if (check.type === 'custom' && custom) {
      let params: unknown;
      try {
        params = customParams(custom, check.params);
      } catch (error) {
        if (!HarnessAugmentError.isInstance(error)) throw error;
        for (const problem of error.issues)
          issues.push({
            code: 'invalid_hook_check_params',
            path: at('check', 'params', ...problem.path),
            message: `${check.name}: ${problem.message}`,
          });
      }
      if (params !== undefined)
        for (const mention of custom.mentions?.(params) ?? []) {
          const name = valueAtPath(params, mention.path);
          const known = mention.kind === 'tool' ? toolNames : skillIds;
          if (typeof name !== 'string' || !known.has(name))
            issues.push({
              code: mention.kind === 'tool' ? 'unknown_tool' : 'unknown_skill',
              path: at('check', 'params', ...mention.path),
              message: `${check.name} names ${mention.kind} ${JSON.stringify(name ?? null)}, which does not exist in the harness`,
            });
        }
    }
    if (hook.stage === 'input' && onFail.action === 'retry') {
      issues.push({
        code: 'input_hook_retry',
        path: at('onFail', 'action'),
        message: 'an input hook cannot retry (the user message cannot be redone); use block or fallback',
      });
    }
    if (check.type === 'regex') {
      const compiled = compileLinearPattern(check.pattern, check.flags);
      if (!compiled.ok)
        issues.push({
          code: 'invalid_regex',
          path: at('check', 'pattern'),
          message: `pattern is refused: ${compiled.reason}`,
        });
    }
    if (check.type === 'json_shape') {
      const compiled = compileJsonSchema(check.schema);
      if (!compiled.ok)
        issues.push({ code: 'invalid_json_schema', path: at('check', 'schema'), message: compiled.error });
    }
    if (onFail.action === 'retry') {
      const problem = checkTemplate(onFail.feedback);
      if (problem) issues.push({ code: 'template_error', path: at('onFail', 'feedback'), message: problem });
      else {
        // Feedback renders in strict mode: a name the check does not provide would fail at run time.
        const own = check.type === 'custom' ? (custom?.variables ?? []) : feedbackVariables[check.type];
        const available = [...feedbackVariables.common, ...own];
        const unknown = feedbackReads(onFail.feedback).filter((name) => !available.includes(name));
        if (unknown.length > 0 && (check.type !== 'custom' || custom))
          issues.push({
            code: 'unknown_template_variable',
            path: at('onFail', 'feedback'),
            message: `reads ${unknown.map((name) => `"${name}"`).join(', ')}, which a ${check.type === 'custom' ? check.name : check.type} check does not provide; it provides ${available.join(', ')}`,
          });
      }
      if (onFail.exhausted === 'fallback' && onFail.fallback === undefined) {
        issues.push({
          code: 'missing_fallback',
          path: at('onFail', 'fallback'),
          message: 'exhausted is "fallback" but no fallback reply is given',
        });
      }
    }
  });

  return issues;
}

/** Prompt sections: templates that compile. */
function sectionTemplateRule(harness: Harness): Issue[] {
  const issues: Issue[] = [];
  harness.prompt.sections.forEach((section, index) => {
    const problem = checkTemplate(section.template);
    if (problem)
      issues.push({
        code: 'template_error',
        path: ['prompt', 'sections', index, 'template'],
        message: problem,
      });
  });
  return issues;
}

/**
 * The rules, in the order their issues are reported, each with the parts it reads: a variant that changed
 * only some parts of a sound harness needs only the rules that read them (`checkHarnessParts`).
 */
const rules: ReadonlyArray<{
  reads: readonly HarnessPartName[];
  check: (harness: Harness, hookChecks: HookChecks) => Issue[];
}> = [
  { reads: ['skills'], check: skillIdRule },
  { reads: ['tools'], check: toolNameRule },
  { reads: ['hooks'], check: hookIdRule },
  { reads: ['prompt'], check: sectionIdRule },
  { reads: ['skills', 'tools'], check: toolRules },
  { reads: ['skills', 'tools', 'hooks'], check: hookRules },
  { reads: ['prompt'], check: sectionTemplateRule },
];

/**
 * Checks the rules of a parsed harness that its schema cannot express, and returns every broken rule.
 *
 * @example
 * checkHarness(harness) // [] when the harness is sound
 */
export function checkHarness(harness: Harness, options: CheckHarnessOptions = {}): Issue[] {
  return checkHarnessParts(harness, ['skills', 'tools', 'hooks', 'prompt'], options);
}

/**
 * Checks only the rules that read one of `parts` (a rule of hooks reads the tools and skills it names, so
 * a change of tools re-checks the hooks too). For a harness that differs from a sound one only in those
 * parts, it finds an issue exactly when `checkHarness` does.
 *
 * @example
 * checkHarnessParts(variant, ['prompt']) // the section ids and templates only
 */
export function checkHarnessParts(
  harness: Harness,
  parts: readonly HarnessPartName[],
  options: CheckHarnessOptions = {},
): Issue[] {
  const hookChecks = options.hookChecks ?? noHookChecks;
  return rules
    .filter((rule) => rule.reads.some((part) => parts.includes(part)))
    .flatMap((rule) => rule.check(harness, hookChecks));
}

/** What a failing check gives its feedback template, by check type (see the hook engine's details). */
const feedbackVariables: Readonly<Record<'common' | HookCheck['type'], readonly string[]>> = {
  common: ['hook', 'reason', 'attempt', 'maxRetries'],
  banned_terms: ['found', 'terms'],
  max_length: ['length', 'max'],
  regex: ['pattern', 'match'],
  skill_loaded: ['kind', 'skill'],
  tool_arguments: ['tool', 'errors'],
  max_tool_calls: ['count', 'max'],
  numbers_grounded: ['numbers'],
  json_shape: ['errors'],
  custom: [],
};
