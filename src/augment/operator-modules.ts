// `--operators <module>` and the pipeline config's `operators: [<module>]`: loads third-party operators from
// a JS/TS module, in the style of `--hook-checks`. The module exports `operators` (or a default export): one
// operator made with `defineOperator` (from `harness-augment/kit`), or an array of them. Every entry is
// checked before it joins the registry; a bad one is a usage error (exit 2) that names the module, the export,
// the index and the field.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessAugmentError } from '../harness/issues.js';
import { dimensions, type Operator } from './operator.js';
import { createRegistry, type Registry } from './registry.js';

/** Operators read from one module, with where they came from (for error messages). */
export interface LoadedOperators {
  module: string;
  operators: Operator[];
}

const modes = ['exact', 'regenerate'] as const;

/** Why an exported value is not an operator, or undefined when it is one. */
function operatorProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not an object made by defineOperator(...)';
  const candidate = value as Partial<Record<keyof Operator, unknown>>;
  if (candidate.kind !== 'operator') return 'kind is not "operator": build it with defineOperator(...)';
  if (typeof candidate.id !== 'string') return 'id: expected a string "dimension/verb"';
  if (!(dimensions as readonly unknown[]).includes(candidate.dimension))
    return `dimension: expected one of ${dimensions.join(', ')}`;
  if (!/^[a-z-]+\/[a-z][a-z0-9-]*$/.test(candidate.id) || !candidate.id.startsWith(`${candidate.dimension}/`))
    return `id "${candidate.id}": must read "${String(candidate.dimension)}/verb" in kebab-case`;
  if (!Number.isInteger(candidate.version) || (candidate.version as number) < 1)
    return 'version: expected an integer ≥ 1';
  if (!(modes as readonly unknown[]).includes(candidate.mode)) return `mode: expected ${modes.join(' or ')}`;
  if (typeof candidate.description !== 'string') return 'description: expected a string';
  const params = candidate.params as { safeParse?: unknown } | undefined;
  if (typeof params?.safeParse !== 'function') return 'params: expected a zod schema (z.object({ … }))';
  if (typeof candidate.apply !== 'function') return 'apply: expected a function';
  if (candidate.needsExample !== undefined && typeof candidate.needsExample !== 'boolean')
    return 'needsExample: expected true or false';
  return undefined;
}

/**
 * Imports a module by path. Inside a worker thread of `--workers` started under tsx, Node's ESM loader has no
 * TypeScript hook (ERR_UNKNOWN_FILE_EXTENSION for a .ts module) while tsx's require hook is there: the
 * module is then required, which gives the same exports.
 */
async function importModule(path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    return createRequire(import.meta.url)(path) as Record<string, unknown>;
  }
}

/**
 * Imports one module of operators. A module that cannot be imported, exports neither `operators` nor a
 * default, or exports something that is not an operator, is a usage error naming the module and the entry.
 *
 * @example
 * const { operators } = await loadOperatorModule('./my-operators.mjs');
 */
export async function loadOperatorModule(module: string, option = '--operators'): Promise<LoadedOperators> {
  let exported: Record<string, unknown>;
  try {
    exported = await importModule(resolve(module));
  } catch (error) {
    throw new HarnessAugmentError(`${option} ${module}: cannot import: ${(error as Error).message}`, {
      kind: 'usage',
    });
  }
  const name =
    exported.operators !== undefined ? 'operators' : exported.default !== undefined ? 'default' : undefined;
  if (name === undefined)
    throw new HarnessAugmentError(
      `${option} ${module}: export \`operators\` (or default): an operator made with defineOperator(...) from harness-augment/kit, or an array of them`,
      { kind: 'usage' },
    );
  const value = exported[name];
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0)
    throw new HarnessAugmentError(`${option} ${module}: \`${name}\` is an empty array`, { kind: 'usage' });
  const operators: Operator[] = [];
  for (const [index, entry] of list.entries()) {
    const problem = operatorProblem(entry);
    const where = Array.isArray(value) ? `${name}[${index}]` : name;
    if (problem)
      throw new HarnessAugmentError(`${option} ${module}: ${where}: ${problem}`, { kind: 'usage' });
    operators.push(entry as Operator);
  }
  return { module, operators };
}

/**
 * Loads every module of `--operators` (repeatable) or the config's `operators` list, in order.
 *
 * @example
 * const loaded = await loadOperatorModules(options.operators);
 */
export async function loadOperatorModules(
  modules: readonly string[] | undefined,
  option = '--operators',
): Promise<LoadedOperators[]> {
  const loaded: LoadedOperators[] = [];
  for (const module of modules ?? []) loaded.push(await loadOperatorModule(module, option));
  return loaded;
}

/**
 * The registry of the built-in operators (`builtins`) plus loaded ones. A loaded operator whose id is a
 * built-in's, or another module's, is a usage error naming both.
 *
 * @example
 * registryOf(builtinOperators, await loadOperatorModules(setup.operators))
 */
export function registryOf(builtins: readonly Operator[], loaded: readonly LoadedOperators[]): Registry {
  const owner = new Map<string, string>(builtins.map((operator) => [operator.id, 'a built-in operator']));
  for (const { module, operators } of loaded) {
    for (const operator of operators) {
      const taken = owner.get(operator.id);
      if (taken)
        throw new HarnessAugmentError(
          `operator "${operator.id}" of ${module} clashes with ${taken}; give it another id (ids are "dimension/verb")`,
          { kind: 'usage' },
        );
      owner.set(operator.id, `the operator of ${module}`);
    }
  }
  return createRegistry([...builtins, ...loaded.flatMap((entry) => entry.operators)]);
}
