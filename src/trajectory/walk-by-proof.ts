// A walk told from another walk. An example's trajectory moved into a variant (`forwardTrajectory`) is walked
// under the variant to write its derived content and to find its issues and hook decisions. Where the
// variant differs from the base only in ways the walk cannot see, that walk is the example's own walk under
// the base with the derived content written from the variant, and need not be made:
//
// - the relabel only renames tools and arguments (`rename_tools`, `rename_arguments`), tools injectively over
//   every name the base's tools and hook scopes hold, so a call reaches the image of its tool;
// - every tool the base offers (the skill loader included) is offered under its new name, with the same
//   parameter schema but for `description`s (an annotation no validator reads) unless its arguments are
//   renamed: a row's calls to such a tool are validated under the variant;
// - the skills have the same ids, kinds and loader argument, the loader its new name;
// - every enabled hook of the variant is an enabled hook of the base with the same id, stage and check
//   (no custom check, which may read anything), scoped to the images of the base hook's tools.
//
// That is proven once per (base, variant, relabel) (`proveWalk`). A row is then told from the example's walk
// under the base (`forwardByProof`) when that walk is valid with no hook failing and no hook turn, the
// relabel left every text a hook reads (user messages, replies, tool results) as it was, every call to a tool
// whose arguments are renamed validates under the variant, and every other call carries its arguments as
// they were: each hook that runs under the variant then runs under the base on the same step and passed
// there (`tool_arguments` checks the arguments against the schema they validate under), and the messages the
// walk derives are the system prompt and skill bodies, written from the variant as the walk writes them.
// Anything else is walked.
import { canonicalJson } from '../harness/canonical-json.js';
import { objectMemo } from '../harness/object-memo.js';
import { offeredTools, sharedChatCompletionTools } from '../harness/offered-tools.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import type { Harness, Hook } from '../harness/schema.js';
import { walkSubschemas } from '../harness/schema-walk.js';
import { type Relabel, relabelMessages } from './relabel.js';
import type { Message, Trajectory } from './schema.js';
import {
  callArgumentErrors,
  derivedContent,
  type Rederived,
  type TrajectoryValidation,
  walkedHarness,
} from './validate-trajectory.js';

/**
 * What `proveWalk` established of a (base, variant, relabel): a trajectory the relabel moves into the
 * variant walks there as it walks under the base, wherever the relabel leaves what the hooks read as it was.
 */
export interface WalkProof {
  readonly base: Harness;
  readonly harness: Harness;
  readonly relabel: Relabel;
  /** The variant's names of the tools whose arguments the relabel renames: their calls are validated. */
  readonly argumentsRenamed: ReadonlySet<string>;
}

/**
 * Proves that the walk of a moved trajectory under `harness` can be told from its walk under `base` (see the
 * file comment), or says why not.
 *
 * @example
 * const proof = proveWalk(base, entry.harness, entry.relabel);
 * if ('proof' in proof) forwardFacts(example, entry.relabel, entry.harness, run, proof.proof);
 */
export function proveWalk(
  base: Harness,
  harness: Harness,
  relabel: Relabel,
): { proof: WalkProof } | { unproven: string } {
  const maps: Array<Record<string, string>> = [];
  // The tools whose arguments a step renames, each by its name at that step (later steps may rename it).
  const argumentSteps: Array<{ tool: string; after: number }> = [];
  for (const step of relabel.steps) {
    if (step.type === 'rename_tools') maps.push(step.map);
    else if (step.type === 'rename_arguments') argumentSteps.push({ tool: step.tool, after: maps.length });
    else return { unproven: `the relabel ${step.type.replace('_', 's ')}` };
  }
  const renamed = (name: string, from = 0) =>
    maps.slice(from).reduce((current, map) => map[current] ?? current, name);
  const argumentsRenamed = new Set(argumentSteps.map(({ tool, after }) => renamed(tool, after)));
  const baseTools = offeredTools(base);
  // Every name a call or a hook scope of the base holds, and where the relabel takes it: two names taken to
  // one would let a hook scoped to one run on calls to the other.
  const names = new Set(baseTools.map((tool) => tool.name));
  for (const hook of base.hooks.items) for (const name of hook.tools ?? []) names.add(name);
  const images = new Set<string>();
  for (const name of names) images.add(renamed(name));
  if (images.size !== names.size) return { unproven: 'the relabel takes two names to one' };

  const variantTools = walkedHarness(harness).tools;
  for (const tool of baseTools) {
    const image = variantTools.get(renamed(tool.name));
    if (!image) return { unproven: `tool ${tool.name} is not offered as ${renamed(tool.name)}` };
    // A tool whose arguments are renamed has a schema of its own: each row's calls to it are validated.
    if (
      !argumentsRenamed.has(image.name) &&
      image.parameters !== tool.parameters &&
      validationKey(image.parameters) !== validationKey(tool.parameters)
    )
      return { unproven: `tool ${tool.name}'s parameters validate otherwise` };
  }

  const { loader } = harness.skills;
  if (loader.argument !== base.skills.loader.argument || loader.tool !== renamed(base.skills.loader.tool))
    return { unproven: 'the skill loader differs' };
  if (harness.skills !== base.skills && skillKinds(harness.skills) !== skillKinds(base.skills))
    return { unproven: 'the skills differ' };

  const baseHooks = new Map(base.hooks.items.filter((hook) => hook.enabled).map((hook) => [hook.id, hook]));
  for (const hook of harness.hooks.items) {
    if (!hook.enabled) continue;
    const source = baseHooks.get(hook.id);
    if (!source || !sameDecider(hook, source, renamed))
      return { unproven: `hook ${hook.id} decides otherwise than the base's` };
  }
  return { proof: Object.freeze({ base, harness, relabel, argumentsRenamed }) };
}

/** Whether `hook` (variant) decides every step as `source` (base) decides the step before the renames. */
function sameDecider(hook: Hook, source: Hook, renamed: (name: string) => string): boolean {
  if (hook.check.type === 'custom' || hook.stage !== source.stage) return false;
  if (checkKey(hook.check) !== checkKey(source.check)) return false;
  if (hook.tools === undefined || source.tools === undefined) return hook.tools === source.tools;
  const scope = new Set(hook.tools);
  const images = new Set(source.tools.map(renamed));
  return scope.size === images.size && [...images].every((name) => scope.has(name));
}

// Pure function of content across runs: a hook check's content.
const checkKey = objectMemo((check: Hook['check']): string => canonicalJson(check));

/**
 * A parameter schema as a validator reads it: its canonical JSON with every subschema's `description`
 * left out (an annotation: no keyword's verdict reads it). A property named `description` is a name under
 * `properties`, not a subschema's keyword, and stays.
 */
const validationKey = objectMemo((schema: object): string => {
  const copy = structuredClone(schema);
  walkSubschemas(copy, (node) => {
    delete node.description;
  });
  return canonicalJson(copy);
});

/** The skills' ids and kinds in order, as one text (the same text for the same ids and kinds). */
const skillKinds = objectMemo((skills: Harness['skills']): string =>
  JSON.stringify(skills.items.map((skill) => [skill.id, skill.kind]).sort()),
);

/**
 * The forward fact of `trajectory` under the proof's variant, told from its walk under the proof's base
 * (`underBase`) without walking, or undefined where that cannot be told (see the file comment); the caller
 * walks then, from `moved` when given (the relabel's messages, already made). Equal to
 * `forwardTrajectory(trajectory, proof.relabel, proof.harness)` wherever it answers.
 *
 * @example
 * const told = forwardByProof(example, proof, validationFacts(example, base, run));
 * const fact = told.fact ?? rederiveTrajectory({ ...example, messages: told.moved ?? relabelMessages(…) }, variant);
 */
export function forwardByProof(
  trajectory: Trajectory,
  proof: WalkProof,
  underBase: Pick<TrajectoryValidation, 'valid' | 'decisions' | 'trajectory'>,
): { fact: Rederived } | { fact?: undefined; moved?: Message[] } {
  if (!underBase.valid || underBase.trajectory !== trajectory) return {};
  if (underBase.decisions.some((decision) => decision.failed !== undefined)) return {};
  const derived = derivedContent(underBase.decisions);
  if (!derived) return {};
  const source = trajectory.messages;
  if (source.some((message) => 'hsa' in message && message.hsa !== undefined)) return {};
  const moved = relabelMessages(source, proof.relabel, 'forward');
  if (moved.length !== source.length) return { moved };
  let rendered: string;
  try {
    rendered = renderSystemPrompt(proof.harness, trajectory.context);
  } catch {
    return { moved };
  }
  const bodies = walkedHarness(proof.harness).skills;
  const messages: Message[] = [];
  for (let index = 0; index < moved.length; index++) {
    const message = moved[index] as Message;
    const before = source[index] as Message;
    if (derived.has(index)) {
      const skill = derived.get(index);
      const content = index === 0 && skill === undefined ? rendered : bodies.get(skill as string);
      if (content === undefined) return { moved };
      messages.push({ ...message, content } as Message);
      continue;
    }
    if (message.content !== before.content || !callsValidate(message, before, proof)) return { moved };
    messages.push(message);
  }
  const rewritten: Trajectory = { ...trajectory, messages };
  if (rewritten.tools) rewritten.tools = sharedChatCompletionTools(proof.harness);
  return { fact: { trajectory: rewritten, issues: [], decisions: underBase.decisions, byProof: proof } };
}

/**
 * Whether a moved message's calls validate as the original's did: a call to a tool whose arguments the
 * relabel renames validates under the variant (that tool's schema is the variant's own, whether or not
 * this call's arguments changed); any other carries the original's arguments, text for text. The one check
 * that reads arguments (`tool_arguments`) validates them against the same schema, so it passes where they
 * validate.
 */
function callsValidate(message: Message, before: Message, proof: WalkProof): boolean {
  if (message.role !== 'assistant' || !message.tool_calls) return true;
  const calls = before.role === 'assistant' ? before.tool_calls : undefined;
  if (calls === undefined || calls.length !== message.tool_calls.length) return false;
  return message.tool_calls.every((call, index) => {
    const { name, arguments: moved } = call.function;
    if (proof.argumentsRenamed.has(name)) return callArgumentErrors(proof.harness, name, moved)?.length === 0;
    return moved === calls[index]?.function.arguments;
  });
}
