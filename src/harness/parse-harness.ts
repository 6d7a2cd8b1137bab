// The boundary where untrusted harness data becomes a `Harness`: shape (zod), then rules (checkHarness).
import type { z } from 'zod';
import { type CheckHarnessOptions, checkHarness, checkHarnessParts } from './check-harness.js';
import { findForbiddenKeys, locateIssues, maxNestingDepth, readDocument } from './documents.js';
import { HarnessAugmentError, type Issue, type SafeResult } from './issues.js';
import {
  type Harness,
  type HarnessPartName,
  HarnessSchema,
  HooksPartSchema,
  PromptPartSchema,
  SkillsPartSchema,
  ToolsPartSchema,
} from './schema.js';

/**
 * Converts zod issues into ours, keeping codes (already snake_case) and paths.
 *
 * @example
 * fromZodIssues(result.error.issues)
 */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[], prefix: Issue['path'] = []): Issue[] {
  return issues.map((issue) => {
    const path = [
      ...prefix,
      ...issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment)),
    ];
    if (issue.code === 'unrecognized_keys') {
      return {
        code: issue.code,
        path,
        message: `unknown key(s): ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
      };
    }
    return { code: issue.code, path, message: issue.message };
  });
}

/**
 * Parses and checks harness data; returns the harness (defaults applied) or every issue found. Custom hook
 * checks the harness names must be in `options.hookChecks`.
 *
 * @example
 * const result = safeParseHarness(YAML.parse(text)); if (!result.success) console.log(result.issues);
 */
export function safeParseHarness(input: unknown, options: CheckHarnessOptions = {}): SafeResult<Harness> {
  parses++;
  const forbidden = findForbiddenKeys(input);
  if (forbidden.length > 0) return { success: false, issues: forbidden };
  const parsed = HarnessSchema.safeParse(input);
  if (!parsed.success) return { success: false, issues: fromZodIssues(parsed.error.issues) };
  const issues = checkHarness(parsed.data, options);
  return issues.length > 0 ? { success: false, issues } : { success: true, data: parsed.data };
}

let parses = 0;
/**
 * How many whole harnesses this process has parsed (`safeParseHarness` calls): tests count work with it.
 *
 * @example
 * const before = harnessParses(); safeParseHarness(data); harnessParses() - before // 1
 */
export function harnessParses(): number {
  return parses;
}

const partSchemas = {
  skills: SkillsPartSchema,
  hooks: HooksPartSchema,
  prompt: PromptPartSchema,
  tools: ToolsPartSchema,
} as const;

/**
 * Whether a variant of a sound harness is sound, parsing and checking only the parts it changed: the
 * verdict of `safeParseHarness(variant, options).success` at the cost of those parts. `base` must be a
 * harness that holds (a parsed `Harness`, as every operator is given and must return); every field of
 * `variant` outside `changed` must be the base's own object, else the whole variant is parsed. The changed
 * parts get the same rules the whole parse gives them: forbidden keys and nesting depth, their zod schema
 * (defaults applied), and the rules of `checkHarnessParts` (which re-checks the hooks when tools or skills
 * changed, as the hooks name them).
 *
 * @example
 * variantHolds(harness, { ...harness, prompt: nextPrompt }, ['prompt']) // false when a section does not compile
 */
export function variantHolds(
  base: Harness,
  variant: Harness,
  changed: readonly HarnessPartName[],
  options: CheckHarnessOptions = {},
): boolean {
  const keys = new Set([...Object.keys(base), ...Object.keys(variant)]);
  for (const key of keys) {
    if ((changed as readonly string[]).includes(key)) continue;
    if ((variant as Record<string, unknown>)[key] !== (base as Record<string, unknown>)[key])
      return safeParseHarness(variant, options).success;
  }
  const parsed: Record<string, unknown> = { ...variant };
  for (const part of changed) {
    // Depth counts from the harness's root, where the part sits one level down.
    if (findForbiddenKeys(variant[part], [part], maxNestingDepth - 1).length > 0) return false;
    const result = partSchemas[part].safeParse(variant[part]);
    if (!result.success) return false;
    parsed[part] = result.data;
  }
  return checkHarnessParts(parsed as Harness, changed, options).length === 0;
}

/**
 * Parses and checks harness data; throws a HarnessAugmentError listing every issue.
 *
 * @example
 * const harness = parseHarness({ id: 'shop', skills: { version: '1', items: [] }, … });
 */
export function parseHarness(input: unknown, options: CheckHarnessOptions = {}): Harness {
  const result = safeParseHarness(input, options);
  if (result.success) return result.data;
  throw new HarnessAugmentError(`invalid harness: ${result.issues.length} issue(s)`, {
    issues: result.issues,
  });
}

/**
 * Reads a harness from a JSON or YAML file. Syntax and I/O problems throw `usage` errors; rule violations
 * throw an `invalid` error whose issues carry the file and line.
 *
 * @example
 * const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
 */
export async function loadHarnessFile(file: string, options: CheckHarnessOptions = {}): Promise<Harness> {
  const document = await readDocument(file);
  const result = safeParseHarness(document.value, options);
  if (result.success) return result.data;
  throw new HarnessAugmentError(`${file}: invalid harness: ${result.issues.length} issue(s)`, {
    issues: locateIssues(result.issues, document),
  });
}
