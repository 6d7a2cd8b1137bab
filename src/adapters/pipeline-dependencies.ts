// Builds the pipeline's injected parts from its configuration: the teachers, the judge, the exporters and
// the paraphraser for `regenerate` operators. It only translates configuration into adapter instances.
import type { RegenerateFunction } from '../augment/operator.js';
import type { Registry } from '../augment/registry.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { assertRunHookChecks, type RunContext } from '../harness/run-context.js';
import type { PipelineConfig, TeacherKind } from '../pipeline/config.js';
import type { MeaningJudgeV1 } from '../pipeline/meaning-judge-spec.js';
import type { PipelineDependencies } from '../pipeline/run-pipeline.js';
import type { PipelineExporter, Teacher } from '../pipeline/teacher.js';
import { allOf, type Judge, majorityVote, rulesJudge } from '../runtime/judge.js';
import type { Scenario } from '../runtime/scenario.js';
import { endpointClient as client, endpointRequest as requestOf } from './endpoint-client.js';
import { meaningJudgeFromConfig } from './judge/meaning-judge.js';
import { modelJudge } from './judge/model-judge.js';
import type { OpenAICompatibleClient } from './openai/index.js';
import { openAICompatibleTeacher, oracleTeacher, replayTeacher } from './teacher/index.js';
import { trainerExporters } from './trainer/index.js';
import { rlExporters } from './trainer/rl/index.js';

/**
 * What `buildPipelineDependencies` needs besides the config: the operator registry, the scenario, the
 * environment and the run.
 */
export interface DependencyOptions {
  /** The operator registry the pipeline augments with (e.g. `builtinRegistry()`). */
  registry: Registry;
  /** The scenario of `inputs.simulate`, resolved by the caller (the CLI picks it by name). */
  scenario?: Scenario;
  /** Environment for API keys (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The run the pipeline belongs to (the CLI starts one with `config.hookChecks`); default: none given. */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names, when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * The pipeline's dependencies as `buildPipelineDependencies` makes them, with the endpoint clients it
 * created.
 */
export interface BuiltDependencies extends PipelineDependencies {
  /** The clients made for endpoints, for their retry statistics. */
  clients: Record<string, OpenAICompatibleClient>;
}

/**
 * Builds what `runPipeline` is injected with from a pipeline config: the teachers, the judge (rules, and a
 * model vote or meaning judge when configured), the exporters and the paraphraser for `regenerate` operators.
 *
 * @example
 * const dependencies = buildPipelineDependencies(config, { registry: await builtinRegistry() });
 */
export function buildPipelineDependencies(
  config: PipelineConfig,
  options: DependencyOptions,
): BuiltDependencies {
  const env = options.env ?? process.env;
  const clients: Record<string, OpenAICompatibleClient> = {};
  // The run's hook checks (a caller that names only hook checks gets them as they are).
  if (options.run) assertRunHookChecks(options.run, options.hookChecks);
  const hookChecks = options.run ? options.run.hookChecks : options.hookChecks;
  // The teachers play in the run given (else each play in a run of its own, with the hook checks).
  const episodeOptions = {
    hookChecks,
    run: options.run,
    ...(config.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: config.maxStepsPerTurn } : {}),
  };
  const teacher = (kind: TeacherKind): Teacher => {
    if (kind === 'replay') return replayTeacher();
    if (kind === 'oracle') return oracleTeacher(episodeOptions);
    const endpoint = config.teacher.endpoint!;
    clients.teacher ??= client(endpoint, env);
    return openAICompatibleTeacher({
      model: clients.teacher,
      request: requestOf(endpoint),
      ...episodeOptions,
    });
  };
  const judges: Judge[] = [rulesJudge(config.judge.rules)];
  if (config.judge.model) {
    clients.judge = client(config.judge.model.endpoint, env);
    judges.push(
      majorityVote({
        judge: modelJudge({ model: clients.judge, request: requestOf(config.judge.model.endpoint) }),
        k: config.judge.model.k,
      }),
    );
  }
  let meaningJudge: MeaningJudgeV1 | undefined;
  if (config.judge.meaning) {
    const built = meaningJudgeFromConfig(config.judge.meaning, env);
    clients.meaning = built.client;
    meaningJudge = built.judge;
  }
  let regenerate: RegenerateFunction | undefined;
  const paraphraser = config.teacher.paraphraser;
  if (paraphraser) {
    clients.paraphraser = client(paraphraser, env);
    const model = clients.paraphraser;
    regenerate = async (request) => {
      const completion = await model.complete({
        ...requestOf(paraphraser),
        messages: [
          { role: 'system', content: request.instruction },
          {
            role: 'user',
            content: `${request.text}\n\nProtected spans (copy verbatim): ${JSON.stringify(request.protectedSpans)}`,
          },
        ],
      });
      return completion.choices[0]?.message.content ?? '';
    };
  }
  return {
    registry: options.registry,
    teachers: { exact: teacher(config.teacher.exact), regenerate: teacher(config.teacher.regenerate) },
    judge: judges.length === 1 ? judges[0]! : allOf(judges),
    ...(meaningJudge ? { meaningJudge } : {}),
    exporters: trainerExporters as unknown as Record<string, PipelineExporter>,
    ...(regenerate ? { regenerate } : {}),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    run: options.run,
    hookChecks,
    rlExporters,
    clients,
  };
}
