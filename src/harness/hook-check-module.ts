// `--hook-checks <module>`: loads the custom hook checks a harness names from a JS/TS module that exports a
// registry (`createHookCheckRegistry([...])`) or a list of checks, as `hookChecks` or as its default export.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CustomHookCheck, createHookCheckRegistry, type HookCheckRegistry } from './hook-checks.js';
import { HarnessAugmentError } from './issues.js';

const isRegistry = (value: unknown): value is HookCheckRegistry =>
  typeof value === 'object' && value !== null && typeof (value as HookCheckRegistry).get === 'function';
const isCheckList = (value: unknown): value is CustomHookCheck[] =>
  Array.isArray(value) && value.every((item) => (item as CustomHookCheck)?.kind === 'hook_check');

/**
 * Loads the hook-check registry of `--hook-checks`; undefined without the option. A module that cannot be
 * imported or exports no registry is a usage error (exit 2).
 *
 * @example
 * const hookChecks = await loadHookChecks(options.hookChecks);
 */
export async function loadHookChecks(module: string | undefined): Promise<HookCheckRegistry | undefined> {
  if (module === undefined) return undefined;
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(resolve(module)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new HarnessAugmentError(`--hook-checks ${module}: cannot import: ${(error as Error).message}`, {
      kind: 'usage',
    });
  }
  for (const candidate of [exported.hookChecks, exported.default]) {
    if (isRegistry(candidate)) return candidate;
    if (isCheckList(candidate)) return createHookCheckRegistry(candidate);
  }
  throw new HarnessAugmentError(
    `--hook-checks ${module}: export \`hookChecks\` (or default) as createHookCheckRegistry([...]) or a list of defineHookCheck(...)`,
    { kind: 'usage' },
  );
}
