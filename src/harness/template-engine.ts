// A sandboxed Handlebars: its own instance, strict mode, a fixed set of helpers, no prototype access and
// no HTML escaping (prompts are not HTML). Templates come from harness files, so nothing in them may
// reach code execution or prototypes.
import Handlebars from 'handlebars';

type HelperFunction = (...args: unknown[]) => unknown;

const isOptions = (value: unknown) =>
  typeof value === 'object' && value !== null && 'hash' in value && 'data' in value;
/** Handlebars passes an options object last; helpers see only the template's own arguments. */
const withoutOptions = (args: unknown[]) =>
  args.length > 0 && isOptions(args.at(-1)) ? args.slice(0, -1) : args;

/**
 * The documented helpers; any other helper name is a compile error.
 *
 * @example
 * Object.keys(templateHelpers) // ['eq', 'ne', 'and', 'or', 'not', 'add', 'join', 'json', 'upper', 'lower', 'default']
 */
export const templateHelpers: Readonly<Record<string, HelperFunction>> = Object.freeze({
  /** `{{#if (eq a b)}}` — strict equality. */
  eq: (...args) => {
    const [a, b] = withoutOptions(args);
    return a === b;
  },
  /** `{{#if (ne a b)}}` — strict inequality. */
  ne: (...args) => {
    const [a, b] = withoutOptions(args);
    return a !== b;
  },
  /** `{{#if (and a b)}}` */
  and: (...args) => withoutOptions(args).every(Boolean),
  /** `{{#if (or a b)}}` */
  or: (...args) => withoutOptions(args).some(Boolean),
  /** `{{#if (not a)}}` */
  not: (...args) => !withoutOptions(args)[0],
  /** `{{add @index 1}}` — sum of numbers. */
  add: (...args) => withoutOptions(args).reduce<number>((sum, value) => sum + Number(value), 0),
  /** `{{join list ", "}}` — joins an array; the separator defaults to ", ". */
  join: (...args) => {
    const [list, separator] = withoutOptions(args);
    return Array.isArray(list) ? list.join(typeof separator === 'string' ? separator : ', ') : '';
  },
  /** `{{json value}}` — compact JSON. */
  json: (...args) => JSON.stringify(withoutOptions(args)[0] ?? null),
  /** `{{upper text}}` */
  upper: (...args) => String(withoutOptions(args)[0] ?? '').toUpperCase(),
  /** `{{lower text}}` */
  lower: (...args) => String(withoutOptions(args)[0] ?? '').toLowerCase(),
  /** `{{default value "fallback"}}` — the fallback when the value is null, undefined or "". */
  default: (...args) => {
    const [value, fallback] = withoutOptions(args);
    return value === undefined || value === null || value === '' ? fallback : value;
  },
});

const builtInHelpers = ['if', 'unless', 'each', 'with'] as const;

function createSandbox(): typeof Handlebars {
  const instance = Handlebars.create();
  // `log` writes to the console and `lookup` reads computed property names; neither belongs in a prompt.
  instance.unregisterHelper('log');
  instance.unregisterHelper('lookup');
  for (const [name, helper] of Object.entries(templateHelpers)) instance.registerHelper(name, helper);
  return instance;
}

const sandbox = createSandbox();
// Handlebars counts `log` and `lookup` as known unless told otherwise; say so, so that the compiler refuses them.
const knownHelpers = {
  ...Object.fromEntries([...builtInHelpers, ...Object.keys(templateHelpers)].map((name) => [name, true])),
  log: false,
  lookup: false,
} as Record<string, boolean>;

const compileOptions = {
  strict: true,
  noEscape: true,
  knownHelpers,
  knownHelpersOnly: true,
} as const;

const runtimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
} as const;

const cache = new Map<string, HandlebarsTemplateDelegate>();
const checked = new Map<string, string | undefined>();

/**
 * Compiles a template once and renders it over plain data. Throws a Handlebars error when the template
 * is malformed, names an unknown helper or reads a missing value (strict mode).
 *
 * @example
 * renderTemplate('Hi {{context.user}}', { context: { user: 'Ann' } }) // 'Hi Ann'
 */
export function renderTemplate(template: string, data: unknown): string {
  let compiled = cache.get(template);
  if (!compiled) {
    compiled = sandbox.compile(template, compileOptions);
    if (cache.size > 2_000) cache.clear();
    cache.set(template, compiled);
  }
  return compiled(data, runtimeOptions);
}

/**
 * Parses a template without rendering it, to report syntax errors and unknown helpers early.
 *
 * @example
 * checkTemplate('{{#each skills}}{{id}}{{/each}}') // undefined (fine)
 */
export function checkTemplate(template: string): string | undefined {
  if (checked.has(template)) return checked.get(template);
  let problem: string | undefined;
  try {
    sandbox.precompile(template, compileOptions);
    problem = findPartial(Handlebars.parse(template));
  } catch (error) {
    problem = error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
  if (checked.size > 2_000) checked.clear();
  checked.set(template, problem);
  return problem;
}

type AstNode = { type: string; [key: string]: unknown };

/** No partial is ever registered, so `{{> name}}` could only fail at render time: say so at check time. */
function findPartial(program: unknown): string | undefined {
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop() as AstNode | undefined;
    if (!node || typeof node !== 'object') continue;
    if (node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') {
      const name = (node.name as { original?: unknown } | undefined)?.original;
      return `partials are not supported: {{> ${String(name)}}} names no template (write the text in place)`;
    }
    if (node.type === 'DecoratorBlock' || node.type === 'Decorator') return 'decorators are not supported';
    for (const key of ['body', 'program', 'inverse'] as const) {
      const child = node[key];
      if (Array.isArray(child)) stack.push(...child);
      else if (child) stack.push(child);
    }
  }
  return undefined;
}

/** Blocks whose body reads another context (an item, a sub-object): its names are not the root's. */
const contextBlocks = new Set(['each', 'with']);

/**
 * The names a template reads from the root of its data, outside `#each` / `#with` bodies (helper names and
 * `@data` variables excluded). Throws on a template that does not parse.
 *
 * @example
 * templateVariables('Too long ({{length}}/{{max}}). {{#each found}}{{this}}{{/each}}') // ['found', 'length', 'max']
 */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const current = node as AstNode;
    switch (current.type) {
      case 'Program':
        for (const statement of current.body as unknown[]) visit(statement);
        return;
      case 'PathExpression': {
        const path = current as unknown as { data: boolean; depth: number; parts: string[]; head?: unknown };
        if (!path.data && path.depth === 0 && path.parts.length > 0) names.add(path.parts[0]!);
        return;
      }
      case 'MustacheStatement':
      case 'SubExpression':
      case 'BlockStatement': {
        const call = current as unknown as {
          path: AstNode & { original?: string; parts?: string[] };
          params: unknown[];
          hash?: { pairs: Array<{ value: unknown }> };
          program?: unknown;
          inverse?: unknown;
        };
        const head = call.path.type === 'PathExpression' ? call.path.parts?.[0] : undefined;
        const isHelper =
          head !== undefined &&
          (Object.hasOwn(templateHelpers, head) ||
            ['if', 'unless', 'each', 'with'].includes(head) ||
            call.params.length > 0 ||
            (call.hash?.pairs.length ?? 0) > 0);
        if (!isHelper) visit(call.path);
        for (const param of call.params) visit(param);
        for (const pair of call.hash?.pairs ?? []) visit(pair.value);
        if (!(head && contextBlocks.has(head))) visit(call.program);
        visit(call.inverse);
        return;
      }
      default:
        return;
    }
  };
  visit(Handlebars.parse(template));
  return [...names].sort();
}
