// The contract between the CLI's `--scenario` option and the code that builds each scenario from files:
// `--scenario livestream | replay | <module path exporting a scenario>` picks a loader by name, and the
// loader turns the command's file options into a Scenario. Only the CLI wires loaders in.
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Harness } from '../harness/schema.js';
import type { Scenario } from '../runtime/scenario.js';

/** What a scenario loader gets from the command line (or a pipeline config, paths resolved). */
export interface ScenarioLoaderInput {
  /** The base harness, parsed. */
  harness: Harness;
  /** Where it was read from (backend module paths in config files resolve against the config's folder). */
  harnessPath: string;
  /** `--trajectories`: a JSONL file of gold trajectories (the replay scenario's episodes). */
  trajectories?: string;
  /** `--backends`: a YAML/JSON file choosing tool backends per tool (replay scenario). */
  backends?: string;
  /** `--player`: which scripted policy the scenario's oracle plays (replay: `gold` or `base-names`). */
  player?: string;
  /** `--hook-checks`: the custom hook checks the harness names, for validating the scenario's logs. */
  hookChecks?: HookCheckRegistry | undefined;
  /** The folder relative paths in the options resolve against (default: the working directory). */
  cwd?: string;
}

/** Builds a scenario from the command's options; throws `HarnessAugmentError` (kind `usage`) on bad options. */
export type ScenarioLoader = (input: ScenarioLoaderInput) => Promise<Scenario>;
