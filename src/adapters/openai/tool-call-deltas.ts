// Assembles streamed chunks into the ChatCompletion a non-streaming call would have returned. Tool calls
// arrive as deltas keyed by `index`: the first carries the id and the function name, the arguments come in
// pieces, and several parallel calls may interleave. Merging follows the openai SDK's own accumulator (a
// non-empty id, type or name replaces the previous one; arguments and content are concatenated).
import type { ChatCompletion, ChatCompletionChoice } from '../../runtime/chat-model.js';
import type { ToolCall } from '../../trajectory/schema.js';
import type {
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  CompletionUsage,
  FinishReason,
  TokenLogprob,
  ToolCallDelta,
} from './wire-types.js';

interface ToolCallState {
  id: string;
  name: string;
  arguments: string;
}

interface ChoiceState {
  content: string | null;
  reasoning: string | null;
  refusal: string | null;
  finishReason: FinishReason | null;
  logprobs: TokenLogprob[] | null;
  tokenIds: number[] | null;
  /** Tool calls by their stream index. */
  toolCalls: Map<number, ToolCallState>;
  /** The index the last delta without one refers to (some servers omit it for a single call). */
  lastToolIndex: number;
}

/** A problem with the assembled stream (a tool call without id or name); the client wraps it. */
export class IncompleteStreamError extends Error {
  override readonly name = 'IncompleteStreamError';
}

/**
 * Collects chunks one at a time; `result()` returns the completion they add up to.
 *
 * @example
 * const accumulator = new ChatCompletionAccumulator();
 * for await (const chunk of client.stream(request)) accumulator.push(chunk);
 * const completion = accumulator.result();
 */
export class ChatCompletionAccumulator {
  private id = '';
  private created = 0;
  private model = '';
  private usage: CompletionUsage | undefined;
  private extras: Record<string, unknown> = {};
  private readonly choices = new Map<number, ChoiceState>();
  private chunkCount = 0;

  /** The number of chunks pushed so far. */
  get chunks(): number {
    return this.chunkCount;
  }

  /** True once every choice seen so far has a finish reason. */
  get finished(): boolean {
    if (this.choices.size === 0) return false;
    for (const choice of this.choices.values()) if (choice.finishReason === null) return false;
    return true;
  }

  push(chunk: ChatCompletionChunk): void {
    this.chunkCount++;
    if (chunk.id) this.id = chunk.id;
    if (chunk.created) this.created = chunk.created;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    for (const key of ['system_fingerprint', 'prompt_logprobs', 'prompt_token_ids'] as const) {
      if (chunk[key] !== undefined && chunk[key] !== null) this.extras[key] = chunk[key];
    }
    for (const choice of chunk.choices) this.pushChoice(choice);
  }

  private pushChoice(chunk: ChatCompletionChunkChoice): void {
    let state = this.choices.get(chunk.index);
    if (!state) {
      state = {
        content: null,
        reasoning: null,
        refusal: null,
        finishReason: null,
        logprobs: null,
        tokenIds: null,
        toolCalls: new Map(),
        lastToolIndex: -1,
      };
      this.choices.set(chunk.index, state);
    }
    const { delta } = chunk;
    if (delta.content) state.content = (state.content ?? '') + delta.content;
    if (delta.refusal) state.refusal = (state.refusal ?? '') + delta.refusal;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) state.reasoning = (state.reasoning ?? '') + reasoning;
    for (const call of delta.tool_calls ?? []) pushToolCall(state, call);
    if (chunk.finish_reason) state.finishReason = chunk.finish_reason;
    if (chunk.logprobs?.content) state.logprobs = [...(state.logprobs ?? []), ...chunk.logprobs.content];
    if (chunk.token_ids) state.tokenIds = [...(state.tokenIds ?? []), ...chunk.token_ids];
  }

  /** The assembled completion; throws IncompleteStreamError when a tool call lacks its id or name. */
  result(): ChatCompletion {
    const choices: ChatCompletionChoice[] = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => buildChoice(index, state));
    const completion: ChatCompletion = {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.model,
      choices,
      ...this.extras,
    };
    if (this.usage) completion.usage = { ...this.usage };
    return completion;
  }
}

function pushToolCall(state: ChoiceState, delta: ToolCallDelta): void {
  // A delta without index (some servers, one call at a time) continues the call with its id, or the last one.
  let index = typeof delta.index === 'number' ? delta.index : undefined;
  if (index === undefined && delta.id) {
    for (const [known, call] of state.toolCalls) if (call.id === delta.id) index = known;
    if (index === undefined) index = state.lastToolIndex + 1;
  }
  index ??= Math.max(0, state.lastToolIndex);
  let call = state.toolCalls.get(index);
  if (!call) {
    call = { id: '', name: '', arguments: '' };
    state.toolCalls.set(index, call);
  }
  state.lastToolIndex = index;
  if (delta.id) call.id = delta.id;
  if (delta.function?.name) call.name = delta.function.name;
  if (delta.function?.arguments) call.arguments += delta.function.arguments;
}

function buildChoice(index: number, state: ChoiceState): ChatCompletionChoice {
  const toolCalls: ToolCall[] = [...state.toolCalls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, call]) => {
      if (!call.id) throw new IncompleteStreamError(`tool call ${position} of choice ${index} has no id`);
      if (!call.name) throw new IncompleteStreamError(`tool call ${position} of choice ${index} has no name`);
      return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
    });
  const message: ChatCompletionChoice['message'] = { role: 'assistant', content: state.content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (state.reasoning !== null) message.reasoning_content = state.reasoning;
  if (state.refusal !== null) Object.assign(message, { refusal: state.refusal });
  const choice: ChatCompletionChoice = {
    index,
    message,
    finish_reason: state.finishReason,
    logprobs: state.logprobs ? { content: state.logprobs, refusal: null } : null,
  };
  if (state.tokenIds) Object.assign(choice, { token_ids: state.tokenIds });
  return choice;
}

/**
 * Assembles a list of chunks into one completion.
 *
 * @example
 * const completion = assembleChatCompletion(chunks);
 * completion.choices[0].message.tool_calls; // the calls, arguments joined
 */
export function assembleChatCompletion(chunks: Iterable<ChatCompletionChunk>): ChatCompletion {
  const accumulator = new ChatCompletionAccumulator();
  for (const chunk of chunks) accumulator.push(chunk);
  return accumulator.result();
}

/**
 * Consumes a stream of chunks (as `client.stream()` returns) and assembles the completion.
 *
 * @example
 * const completion = await collectChatCompletion(client.stream(request));
 */
export async function collectChatCompletion(
  chunks: AsyncIterable<ChatCompletionChunk>,
): Promise<ChatCompletion> {
  const accumulator = new ChatCompletionAccumulator();
  for await (const chunk of chunks) accumulator.push(chunk);
  return accumulator.result();
}
