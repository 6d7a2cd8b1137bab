// The boundary where untrusted harness data becomes a `Harness`: shape (zod), then rules (checkHarness).
import type { z } from 'zod';
import { type CheckHarnessOptions, checkHarness } from './check-harness.js';
import { findForbiddenKeys, locateIssues, readDocument } from './documents.js';
import { HarnessAugmentError, type Issue, type SafeResult } from './issues.js';
import { type Harness, HarnessSchema } from './schema.js';

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
  const forbidden = findForbiddenKeys(input);
  if (forbidden.length > 0) return { success: false, issues: forbidden };
  const parsed = HarnessSchema.safeParse(input);
  if (!parsed.success) return { success: false, issues: fromZodIssues(parsed.error.issues) };
  const issues = checkHarness(parsed.data, options);
  return issues.length > 0 ? { success: false, issues } : { success: true, data: parsed.data };
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
