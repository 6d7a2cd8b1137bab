// `--scenario replay`: the log-replay scenario from files (`--trajectories`, `--backends`, `--player`); the
// files' formats and their readers live with the scenario (src/scenarios/replay/backends-file.ts), and the
// CLI gives them the MCP client.
import { resolve } from 'node:path';
import { createMcpBackend } from '../../adapters/mcp/index.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import {
  buildBackends,
  createReplayScenario,
  parsePlayer,
  readBackendsFile,
  readReplayTrajectories,
} from '../../scenarios/replay/index.js';
import type { ScenarioLoader } from '../scenario-loader.js';

const usage = (message: string) => new HarnessAugmentError(message, { kind: 'usage' });

/**
 * @example
 * const scenario = await loadReplayScenario({ harness, harnessPath, trajectories: 'logs.jsonl', backends: 'backends.yaml' });
 */
export const loadReplayScenario: ScenarioLoader = async (input) => {
  if (!input.trajectories)
    throw usage('--scenario replay needs --trajectories <file.jsonl>: the logged conversations to replay');
  const cwd = input.cwd ?? process.cwd();
  const trajectories = await readReplayTrajectories(
    resolve(cwd, input.trajectories),
    input.harness,
    input.hookChecks,
  );
  const player = parsePlayer(input.player);
  const checks = { hookChecks: input.hookChecks };
  if (!input.backends) return createReplayScenario({ trajectories, player, ...checks });
  const file = resolve(cwd, input.backends);
  const built = await buildBackends(file, await readBackendsFile(file), {
    harnessTools: new Set(input.harness.tools.items.map((tool) => tool.name)),
    connectMcp: createMcpBackend,
  });
  const scenario = createReplayScenario({
    trajectories,
    player,
    ...checks,
    backends: { default: built.default, tools: built.tools },
  });
  const issues = scenario.check(input.harness).filter((issue) => issue.path[0] === 'backends');
  if (issues.length > 0) {
    await scenario.close?.();
    throw new HarnessAugmentError(
      `${input.backends}: the backends do not fit harness "${input.harness.id}"`,
      {
        issues: issues.map((issue) => ({ ...issue, file: input.backends! })),
      },
    );
  }
  return scenario;
};
