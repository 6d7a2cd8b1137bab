import type { Command } from 'commander';
import { createOpenAICompatible } from '../../adapters/openai/index.js';
import { leftOutNote, runnablePlan } from '../../augment/runnable-plan.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { jsonLine } from '../../harness/json-lines.js';
import { type SimulateOptions, simulate } from '../../runtime/sim/simulate.js';
import { validateTrajectory } from '../../trajectory/validate-trajectory.js';
import { endpointFailures } from '../endpoint-failures.js';
import { harnessWithChecks, parseMaxSteps } from '../episode-options.js';
import { boundedNumber, endpointTimeout, finishCommand, nonNegativeInteger, openAtomicLines } from '../io.js';
import { policyFromOptions, registryFromOptions, withOperatorsOption } from '../operators-registry.js';
import { outOption, outputFileOption, prepareOutputFiles, printResult } from '../output.js';
import { createProgress } from '../progress.js';
import { type ScenarioCliOptions, scenarioFromOptions, withScenarioOptions } from '../scenario-option.js';
import { parseShard } from '../shard.js';

interface SimRunOptions extends ScenarioCliOptions {
  harness: string;
  policy: string;
  endpoint?: string;
  timeout?: string;
  model?: string;
  apiKeyEnv: string;
  temperature?: string;
  maxTokens?: string;
  episodes?: string;
  seed?: string;
  idPrefix?: string;
  augment?: string;
  severity?: string;
  faults?: string;
  concurrency?: string;
  shard?: string;
  strict?: boolean;
  out: string;
  report?: string;
  rejects?: string;
  variantsOut?: string;
  operators?: string[];
}

function rate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(value >= 0 && value <= 1))
    throw new HarnessAugmentError(`--faults must be a rate in [0, 1], got "${text}"`, { kind: 'usage' });
  return value;
}

async function augmentPlan(reference: string, severity: string | undefined, operators: string[] | undefined) {
  const registry = await registryFromOptions(operators);
  const { plan, severity: level } = await policyFromOptions(reference, undefined, severity, registry);
  return { plan, severity: level };
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

export function registerSim(program: Command): void {
  const sim = program.command('sim').description("simulate a scenario's episodes with its oracle or a model");
  const run = sim
    .command('run')
    .description('play simulated episodes under a harness (or augmented variants) and score them')
    .requiredOption('--harness <file>', 'base harness');
  withOperatorsOption(withScenarioOptions(run))
    .option(
      '--policy <policy>',
      "who answers: oracle (the scenario's scripted policy) or model (needs --endpoint)",
      'oracle',
    )
    .option(
      '--endpoint <url>',
      'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (implies --policy model)',
    )
    .option(
      '--timeout <seconds>',
      'seconds one model call may take, every retry and wait included (default 60; at most 3600); a call past it fails with its reason',
    )
    .option('--model <name>', 'model name sent to the endpoint')
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .option('--temperature <t>', 'sampling temperature for the model')
    .option('--max-tokens <n>', 'max_tokens for the model')
    .option('--episodes <n>', "number of episodes (default: the scenario's own count)")
    .option('--seed <seed>', "seed of the run (default: the scenario's own seed)")
    .option('--id-prefix <prefix>', 'episode id prefix, where the scenario numbers its episodes')
    .option(
      '--augment <policy>',
      'run each episode under a certified variant: a preset name or a policy file',
    )
    .option('--severity <level>', 'severity for --augment: slight, medium, heavy or [0, 1]')
    .option('--faults <rate>', 'share of tool calls that fail (timeout, malformed output, permission denied)')
    .option('--concurrency <n>', 'episodes played at once')
    .option('--shard <i/n>', 'only the episodes whose position modulo n is i')
    .option('--strict', 'assert every hook decision of the oracle script (fixture generation)')
    .addOption(outOption('file', 'trajectories JSONL', { required: true }))
    .addOption(outputFileOption('--report <file>', 'per-episode rewards JSONL (default <out>.rewards.jsonl)'))
    .addOption(
      outputFileOption(
        '--rejects <file>',
        'episodes whose model endpoint failed for good, with the reason (default <out>.rejects.jsonl, written when one did; the run goes on and exits 1)',
      ),
    )
    .addOption(
      outputFileOption(
        '--variants-out <file>',
        'with --augment: variant harnesses and relabels (default <out>.variants.jsonl)',
      ),
    )
    .action(async (options: SimRunOptions) => {
      const started = Date.now();
      const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
      const maxStepsPerTurn = parseMaxSteps(options.maxSteps);
      const useModel = options.policy === 'model' || options.endpoint !== undefined;
      if (!['oracle', 'model'].includes(options.policy))
        throw new HarnessAugmentError(`--policy must be oracle or model, got "${options.policy}"`, {
          kind: 'usage',
        });
      if (useModel && (!options.endpoint || !options.model))
        throw new HarnessAugmentError('a model policy needs --endpoint and --model', { kind: 'usage' });
      const faults = rate(options.faults);
      const shard = parseShard(options.shard);
      const scenario = await scenarioFromOptions(options, harness, options.harness, run);
      const simulateOptions: SimulateOptions = {
        scenario,
        harness,
        run,
        ...(maxStepsPerTurn !== undefined ? { maxStepsPerTurn } : {}),
        ...(options.episodes !== undefined
          ? { episodes: nonNegativeInteger('--episodes', options.episodes, 10_000_000) }
          : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.idPrefix !== undefined ? { idPrefix: options.idPrefix } : {}),
        ...(faults !== undefined ? { faults: { rate: faults } } : {}),
        ...(shard ? { shard } : {}),
        ...(options.strict ? { strict: true } : {}),
        ...(options.concurrency
          ? { concurrency: nonNegativeInteger('--concurrency', options.concurrency, 1024) }
          : {}),
      };
      if (options.augment)
        simulateOptions.augment = await augmentPlan(options.augment, options.severity, options.operators);
      if (useModel) {
        const apiKey = process.env[options.apiKeyEnv];
        simulateOptions.model = {
          model: createOpenAICompatible({
            baseURL: options.endpoint!,
            ...(apiKey ? { apiKey } : {}),
            ...endpointTimeout(options.timeout),
          }),
          request: {
            model: options.model!,
            ...(options.temperature !== undefined
              ? { temperature: boundedNumber('--temperature', options.temperature, { min: 0, max: 2 }) }
              : {}),
            ...(options.maxTokens !== undefined ? { max_tokens: Number(options.maxTokens) } : {}),
          },
        };
      }

      const stem = options.out.replace(/\.jsonl$/i, '');
      const reportFile = options.report ?? `${stem}.rewards.jsonl`;
      const variantsFile = options.variantsOut ?? `${stem}.variants.jsonl`;
      const rejectsFile = options.rejects ?? `${stem}.rejects.jsonl`;
      await prepareOutputFiles({
        '--out': options.out,
        '--report': reportFile,
        ...(useModel ? { '--rejects': rejectsFile } : {}),
        ...(options.augment ? { '--variants-out': variantsFile } : {}),
      });
      const out = await openAtomicLines(options.out);
      const report = await openAtomicLines(reportFile);
      const variants = options.augment ? await openAtomicLines(variantsFile) : undefined;
      const rejects = useModel ? await openAtomicLines(rejectsFile) : undefined;
      const failures = endpointFailures('episode');
      // An episode whose endpoint failed for good is a reject; the finished episodes are kept.
      simulateOptions.onEpisodeError = async ({ id, error }) => {
        const reject = rejects ? failures.reject(id, error) : undefined;
        if (reject) await rejects?.write(`${JSON.stringify(reject)}\n`);
        return reject !== undefined;
      };
      const progress = await createProgress('sim', { total: simulateOptions.episodes, unit: 'episodes' });
      const totals = { episodes: 0, invalid: 0, faults: 0, deviations: 0, augmentSkipped: 0, truncated: 0 };
      // Reward names in the order the scenario's scores give them, then the total.
      const rewards = new Map<string, number[]>();
      const add = (name: string, value: number) => {
        const values = rewards.get(name);
        if (values) values.push(value);
        else rewards.set(name, [value]);
      };
      const invalidIds: string[] = [];
      try {
        for await (const episode of simulate(simulateOptions)) {
          totals.episodes++;
          const validation = validateTrajectory(episode.trajectory, episode.harness, {
            hookChecks: run.hookChecks,
          });
          if (!validation.valid) {
            totals.invalid++;
            if (invalidIds.length < 5) invalidIds.push(episode.id);
          }
          totals.faults += episode.faults.failed;
          totals.deviations += episode.deviations.length;
          if (episode.augmentSkipped) totals.augmentSkipped++;
          if (episode.truncatedTurns.length > 0) totals.truncated++;
          const scores = { ...episode.rewards.rewards, total: episode.rewards.total };
          for (const [name, value] of Object.entries(scores)) add(name, value);
          await out.write(jsonLine(episode.trajectory));
          await report.write(
            jsonLine({
              id: episode.id,
              rewards: scores,
              valid: validation.valid,
              faults: episode.faults,
              ...(episode.variant ? { variantId: episode.variant.id } : {}),
              ...(episode.augmentSkipped ? { augmentSkipped: episode.augmentSkipped } : {}),
              ...(episode.deviations.length > 0 ? { deviations: episode.deviations } : {}),
              ...(episode.truncatedTurns.length > 0
                ? { truncated: { turns: episode.truncatedTurns, maxStepsPerTurn: episode.maxStepsPerTurn } }
                : {}),
              task: episode.task,
              details: episode.rewards.details,
            }),
          );
          if (variants && episode.variant)
            await variants.write(
              jsonLine({
                id: episode.id,
                variantId: episode.variant.id,
                ops: episode.variant.ops,
                harness: episode.harness,
                relabel: episode.variant.relabel,
              }),
            );
          progress.update(totals.episodes);
        }
      } catch (error) {
        progress.done();
        await Promise.all([out.abort(), report.abort(), variants?.abort(), rejects?.abort()]);
        throw error;
      } finally {
        // Ends what the scenario holds (MCP connections and their child processes).
        await scenario.close?.();
      }
      progress.done();
      const keepRejects = failures.count > 0 || options.rejects !== undefined;
      await Promise.all([
        out.commit(),
        report.commit(),
        variants?.commit(),
        keepRejects ? rejects?.commit() : rejects?.abort(),
      ]);
      const leftOut = simulateOptions.augment ? runnablePlan(simulateOptions.augment.plan).leftOut : [];
      const lines = [
        `episodes: ${totals.episodes}${failures.count > 0 ? ` played + ${failures.count} failed (endpoint)` : ''} (${useModel ? `model ${options.model}` : 'oracle'}${options.augment ? `, augmented with ${options.augment}` : ''}${faults !== undefined ? `, fault rate ${faults}` : ''})`,
        `valid under their harness: ${totals.episodes - totals.invalid} / ${totals.episodes}${invalidIds.length > 0 ? ` (invalid: ${invalidIds.join(', ')}…)` : ''}`,
        `mean rewards: ${[...rewards].map(([name, values]) => `${name} ${mean(values).toFixed(4)}`).join(', ')}`,
        `truncated at the step limit: ${totals.truncated} / ${totals.episodes}${totals.truncated > 0 ? ' (raise --max-steps)' : ''}`,
        `tool faults: ${totals.faults}; script deviations: ${totals.deviations}${options.augment ? `; episodes without a certified variant: ${totals.augmentSkipped}` : ''}`,
        ...(options.augment ? [leftOutNote(leftOut)] : []),
        `out: ${options.out}  report: ${reportFile}${variants ? `  variants: ${variantsFile}` : ''}${rejects && keepRejects ? `  rejects: ${rejectsFile}` : ''}  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ];
      printResult(
        {
          out: options.out,
          report: reportFile,
          ...(variants ? { variants: variantsFile } : {}),
          ...(rejects && keepRejects ? { rejects: rejectsFile } : {}),
          ...totals,
          ...(options.augment ? { leftOut } : {}),
          ...(useModel ? { failed: failures.count } : {}),
        },
        lines,
      );
      finishCommand({ invalid: totals.invalid + failures.count });
    });
}
