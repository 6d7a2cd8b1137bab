// The one place that turns `--scenario livestream | replay | <module path>` (and a pipeline config's
// `inputs.simulate.scenario`) into a Scenario: a name picks a registered loader; a path ending in .js, .mjs
// or .ts is imported and must export `default` or `scenario`, a Scenario or a function that makes one.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { HarnessAugmentError } from '../harness/issues.js';
import { loadHarnessFile } from '../harness/parse-harness.js';
import { createRunContext, type RunContext } from '../harness/run-context.js';
import type { PipelineConfig } from '../pipeline/config.js';
import type { Scenario } from '../runtime/scenario.js';
import { type EpisodeCliOptions, withHookChecksOption, withMaxStepsOption } from './episode-options.js';
import type { ScenarioLoader, ScenarioLoaderInput } from './scenario-loader.js';
import { loadHelpdeskCliScenario } from './scenarios/helpdesk.js';
import { loadLivestreamScenario } from './scenarios/livestream.js';
import { loadReplayScenario } from './scenarios/replay.js';

/** The scenarios a name picks. Register a new one here (one line). */
export const scenarioLoaders: Readonly<Record<string, ScenarioLoader>> = {
  helpdesk: loadHelpdeskCliScenario,
  livestream: loadLivestreamScenario,
  replay: loadReplayScenario,
};

const modulePath = /\.(c?m?js|m?ts)$/i;

const usage = (message: string) => new HarnessAugmentError(message, { kind: 'usage' });

function isScenario(value: unknown): value is Scenario {
  const candidate = value as Partial<Scenario> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.check === 'function' &&
    typeof candidate.defaultEpisodes === 'function' &&
    typeof candidate.plan === 'function' &&
    typeof candidate.episode === 'function' &&
    typeof candidate.backend === 'function'
  );
}

async function fromModule(path: string, input: ScenarioLoaderInput): Promise<Scenario> {
  const file = resolve(input.cwd ?? process.cwd(), path);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw usage(`--scenario ${path}: cannot import ${file}: ${(error as Error).message}`);
  }
  const exported = module.default ?? module.scenario;
  if (exported === undefined)
    throw usage(
      `--scenario ${path}: the module must export \`default\` or \`scenario\` (a Scenario, or a function that returns one)`,
    );
  const value = typeof exported === 'function' ? await (exported as ScenarioLoader)(input) : exported;
  if (!isScenario(value))
    throw usage(
      `--scenario ${path}: the export is not a Scenario (it needs name, check, defaultEpisodes, plan, episode and backend; see docs/scenarios.md)`,
    );
  return value;
}

/**
 * Resolves a scenario name or module path into a Scenario.
 *
 * @example
 * const scenario = await resolveScenario('livestream', { harness, harnessPath: 'fixtures/livestream/harness.yaml' });
 */
export async function resolveScenario(name: string, input: ScenarioLoaderInput): Promise<Scenario> {
  if (modulePath.test(name)) return fromModule(name, input);
  const loader = Object.hasOwn(scenarioLoaders, name) ? scenarioLoaders[name] : undefined;
  if (!loader)
    throw usage(
      `unknown scenario "${name}"; known: ${Object.keys(scenarioLoaders).sort().join(', ')}, or a module path (.js, .mjs, .ts) exporting a scenario`,
    );
  return loader(input);
}

/** The `--scenario`, `--trajectories` and `--backends` options of a command, and the episode options. */
export interface ScenarioCliOptions extends EpisodeCliOptions {
  scenario: string;
  trajectories?: string;
  backends?: string;
  player?: string;
}

/**
 * Adds `--scenario`, `--trajectories`, `--backends`, `--player`, and the episode options `--hook-checks` and
 * `--max-steps`, to a command that runs episodes.
 *
 * @example
 * withScenarioOptions(program.command('run'));
 */
export function withScenarioOptions(command: Command): Command {
  return withMaxStepsOption(withHookChecksOption(command))
    .requiredOption(
      '--scenario <name|module>',
      `what runs the harness: ${Object.keys(scenarioLoaders).sort().join(', ')}, or a module path exporting a scenario`,
    )
    .option('--trajectories <file>', 'gold trajectories JSONL (episodes of the replay scenario)')
    .option('--backends <file>', 'tool backends per tool, YAML or JSON (replay scenario)')
    .option('--player <name>', "the oracle's scripted policy: gold or base-names (replay scenario)");
}

/**
 * The scenario a command's options pick, for a harness already loaded.
 *
 * @example
 * const scenario = await scenarioFromOptions(options, harness, options.harness, run);
 */
export function scenarioFromOptions(
  options: ScenarioCliOptions,
  harness: ScenarioLoaderInput['harness'],
  harnessPath: string,
  run: RunContext,
): Promise<Scenario> {
  return resolveScenario(options.scenario, {
    harness,
    harnessPath,
    hookChecks: run.hookChecks,
    ...(options.trajectories ? { trajectories: options.trajectories } : {}),
    ...(options.backends ? { backends: options.backends } : {}),
    ...(options.player ? { player: options.player } : {}),
  });
}

/**
 * The scenario a pipeline config plays: the one `inputs.simulate.scenario` names (paths in it already
 * resolved against the config's folder by `loadPipelineConfig`); with `inputs.trajectories` and an `rl:`
 * stage, the replay scenario over those same trajectories (their user turns are the episodes, their recorded
 * tool results answer the calls); otherwise undefined (file inputs need no scenario).
 *
 * @example
 * const scenario = await pipelineScenario(config);
 * await runPipeline(config, { ...dependencies, ...(scenario ? { scenario } : {}) });
 */
export async function pipelineScenario(
  config: PipelineConfig,
  cwd?: string,
  run: RunContext = createRunContext(),
): Promise<Scenario | undefined> {
  const checks = { hookChecks: run.hookChecks };
  if (!('simulate' in config.inputs)) {
    if (!config.rl) return undefined;
    return resolveScenario('replay', {
      harness: await loadHarnessFile(config.harness, checks),
      harnessPath: config.harness,
      ...checks,
      trajectories: config.inputs.trajectories,
      ...(cwd ? { cwd } : {}),
    });
  }
  const { simulate } = config.inputs;
  return resolveScenario(simulate.scenario, {
    harness: await loadHarnessFile(config.harness, checks),
    harnessPath: config.harness,
    ...checks,
    ...(simulate.trajectories ? { trajectories: simulate.trajectories } : {}),
    ...(simulate.backends ? { backends: simulate.backends } : {}),
    ...(cwd ? { cwd } : {}),
  });
}
