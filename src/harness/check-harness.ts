// Rules a harness must keep beyond its shape: unique ids, a loader that does not shadow a tool, tool schemas
// that compile, hook checks at stages where they mean something, templates and patterns that compile.

import { type Issue, quote } from './issues.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { checkStages, type Harness, type HookCheck } from './schema.js';
import { checkTemplate, templateVariables } from './template-engine.js';

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

/**
 * Checks the rules of a parsed harness that its schema cannot express, and returns every broken rule.
 *
 * @example
 * checkHarness(harness) // [] when the harness is sound
 */
export function checkHarness(harness: Harness): Issue[] {
  const issues: Issue[] = [];
  issues.push(
    ...duplicates(
      harness.skills.items,
      (skill) => skill.id,
      (i) => ['skills', 'items', i, 'id'],
      'skill id',
    ),
    ...duplicates(
      harness.tools.items,
      (tool) => tool.name,
      (i) => ['tools', 'items', i, 'name'],
      'tool name',
    ),
    ...duplicates(
      harness.hooks.items,
      (hook) => hook.id,
      (i) => ['hooks', 'items', i, 'id'],
      'hook id',
    ),
    ...duplicates(
      harness.prompt.sections,
      (section) => section.id,
      (i) => ['prompt', 'sections', i, 'id'],
      'section id',
    ),
  );

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
    const compiled = compileJsonSchema(tool.parameters);
    if (!compiled.ok) {
      issues.push({
        code: 'invalid_json_schema',
        path: ['tools', 'items', index, 'parameters'],
        message: `parameters of "${tool.name}" are not a valid JSON Schema: ${compiled.error}`,
      });
    }
  });

  harness.hooks.items.forEach((hook, index) => {
    const at = (...rest: Issue['path']) => ['hooks', 'items', index, ...rest];
    const { check, onFail } = hook;
    if (!checkStages[check.type].includes(hook.stage)) {
      issues.push({
        code: 'check_stage_mismatch',
        path: at('stage'),
        message: `a "${check.type}" check runs at ${checkStages[check.type].join(', ')}, not at ${hook.stage}`,
      });
    }
    if (hook.stage === 'input' && onFail.action === 'retry') {
      issues.push({
        code: 'input_hook_retry',
        path: at('onFail', 'action'),
        message: 'an input hook cannot retry (the viewer message cannot be redone); use block or fallback',
      });
    }
    if (check.type === 'regex') {
      try {
        new RegExp(check.pattern, check.flags);
      } catch (error) {
        issues.push({
          code: 'invalid_regex',
          path: at('check', 'pattern'),
          message: (error as Error).message,
        });
      }
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
        const available = [...feedbackVariables.common, ...feedbackVariables[check.type]];
        const unknown = templateVariables(onFail.feedback).filter((name) => !available.includes(name));
        if (unknown.length > 0)
          issues.push({
            code: 'unknown_template_variable',
            path: at('onFail', 'feedback'),
            message: `reads ${unknown.map((name) => `"${name}"`).join(', ')}, which a ${check.type} check does not provide; it provides ${available.join(', ')}`,
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

/** What a failing check gives its feedback template, by check type (see the hook engine's details). */
const feedbackVariables: Readonly<Record<'common' | HookCheck['type'], readonly string[]>> = {
  common: ['hook', 'reason', 'attempt', 'maxRetries'],
  banned_terms: ['found', 'terms'],
  max_length: ['length', 'max'],
  regex: ['pattern', 'match'],
  skill_loaded: ['kind'],
  tool_arguments: ['tool', 'errors'],
  max_tool_calls: ['count', 'max'],
  numbers_grounded: ['numbers'],
  json_shape: ['errors'],
};
