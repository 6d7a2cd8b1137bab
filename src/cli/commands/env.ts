// `hsa env serve`: the RL environment server (Gym-like /reset and /step, OpenRLHF /get_reward, /health) over
// a scenario's episodes. Parses options, wires the service to the HTTP adapter, prints where it listens,
// and shuts down cleanly on SIGINT or SIGTERM.
import type { Command } from 'commander';
import { startEnvServer } from '../../adapters/env-http/server.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { createEnvService } from '../../runtime/env/service.js';
import { harnessWithChecks, parseMaxSteps } from '../episode-options.js';
import { nonNegativeInteger } from '../io.js';
import { outputMode, printResult, printWarning } from '../output.js';
import { type ScenarioCliOptions, scenarioFromOptions, withScenarioOptions } from '../scenario-option.js';
import { untilSignal } from '../until-signal.js';

interface EnvServeOptions extends ScenarioCliOptions {
  harness: string;
  host: string;
  port: string;
  tokenEnv?: string;
  maxBody: string;
  maxEpisodes: string;
  faults?: string;
  seed?: string;
  idleMinutes: string;
}

const units: Record<string, number> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2 };

/** Parses a size such as `1mb`, `512kb` or `65536` (binary units: 1 kb = 1024 bytes). */
function byteSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const factor = match ? units[match[2]!.toLowerCase()] : undefined;
  const bytes = match && factor !== undefined ? Math.floor(Number(match[1]) * factor) : Number.NaN;
  if (!(bytes >= 1))
    throw new HarnessAugmentError(`--max-body must be a size such as 1mb, 512kb or 65536, got "${text}"`, {
      kind: 'usage',
    });
  return bytes;
}

function faultRate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(value >= 0 && value <= 1))
    throw new HarnessAugmentError(`--faults must be a rate in [0, 1], got "${text}"`, { kind: 'usage' });
  return value;
}

function token(variable: string | undefined): string | undefined {
  if (variable === undefined) return undefined;
  const value = process.env[variable];
  if (!value)
    throw new HarnessAugmentError(`--token-env ${variable}: the environment variable is not set or empty`, {
      kind: 'usage',
    });
  return value;
}

const loopback = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/**
 * Registers `hsa env serve`.
 *
 * @example
 * registerEnv(program); // hsa env serve --scenario replay --harness h.yaml --trajectories t.jsonl --port 8000
 */
export function registerEnv(program: Command): void {
  const env = program.command('env').description("serve a scenario's episodes as an RL environment");
  const serve = env
    .command('serve')
    .description('HTTP environment: POST /reset, POST /step, POST /get_reward (OpenRLHF), GET /health')
    .requiredOption('--harness <file>', 'base harness');
  withScenarioOptions(serve)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0: any free port)', '8000')
    .option('--token-env <var>', 'require "Authorization: Bearer <token>", the token read from this variable')
    .option('--max-body <size>', 'largest request body (e.g. 1mb, 512kb)', '1mb')
    .option('--max-episodes <n>', 'most episodes held at once', '1024')
    .option('--faults <rate>', 'default share of tool calls that fail (a reset may override it)')
    .option('--seed <seed>', "seed of resets that give none (default: the scenario's own seed)")
    .option('--idle-minutes <n>', 'drop an episode after this many minutes without a request', '10')
    .action(async (options: EnvServeOptions) => {
      const port = nonNegativeInteger('--port', options.port);
      if (port > 65_535)
        throw new HarnessAugmentError(`--port must be at most 65535, got ${port}`, { kind: 'usage' });
      const idleMinutes = Number(options.idleMinutes);
      if (!(idleMinutes > 0))
        throw new HarnessAugmentError(
          `--idle-minutes must be a positive number, got "${options.idleMinutes}"`,
          {
            kind: 'usage',
          },
        );
      const maxEpisodes = nonNegativeInteger('--max-episodes', options.maxEpisodes, 1_000_000);
      if (maxEpisodes < 1)
        throw new HarnessAugmentError('--max-episodes must be at least 1', { kind: 'usage' });
      const maxBodyBytes = byteSize(options.maxBody);
      const faults = faultRate(options.faults);
      const secret = token(options.tokenEnv);
      const maxStepsPerTurn = parseMaxSteps(options.maxSteps);
      const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
      const scenario = await scenarioFromOptions(options, harness, options.harness, run);
      const seed = options.seed ?? scenario.seed ?? '0';
      const service = createEnvService({
        scenario,
        harness,
        seed,
        maxEpisodes,
        idleMs: idleMinutes * 60_000,
        // Ids of this process differ from a previous run's, so a client holding old ids gets a 404.
        instance: Date.now().toString(36),
        ...(faults !== undefined ? { faults: { rate: faults } } : {}),
        run,
        ...(maxStepsPerTurn !== undefined ? { maxStepsPerTurn } : {}),
      });
      // Watched before the port opens: a SIGTERM that comes as soon as the server listens still shuts it down
      // cleanly, instead of killing the process by the signal's default action.
      const stopped = untilSignal();
      const server = await startEnvServer(service, {
        host: options.host,
        port,
        maxBodyBytes,
        ...(secret !== undefined ? { token: secret } : {}),
      });
      const lines = [
        `hsa env serve: listening on ${server.url}`,
        `  scenario ${scenario.name}, harness ${harness.id}, seed ${seed}${faults !== undefined ? `, fault rate ${faults}` : ''}, at most ${maxEpisodes} episodes, idle timeout ${idleMinutes} min, body limit ${maxBodyBytes} bytes`,
        `  auth: ${secret !== undefined ? `Bearer token from $${options.tokenEnv} (GET /health is open)` : 'none'}`,
        `  POST ${server.url}/reset       start an episode: {"seed", "index", "harness": "original" | {"augment": "hat"}, "faults": {"rate"}}`,
        `  POST ${server.url}/step        one assistant message: {"episode_id", "message"}`,
        `  POST ${server.url}/get_reward  OpenRLHF --remote_rm_url: {"query", "prompts", "labels": [episode_id, …]}`,
        `  GET  ${server.url}/health`,
        '  Ctrl-C to stop',
      ];
      printResult(
        { url: server.url, harness: harness.id, seed: options.seed, maxEpisodes, maxBodyBytes },
        lines,
      );
      if (secret === undefined && !loopback.test(options.host))
        printWarning(
          `hsa: warning: listening on ${options.host} without a token; anyone who can reach it can use it (see --token-env)`,
        );
      const signal = await stopped;
      if (!outputMode().json) printResult(undefined, `hsa env serve: ${signal}, shutting down`);
      await server.close();
      service.close();
      await scenario.close?.();
    });
}
