// A scripted ChatModel that answers with the assistant messages of a logged trajectory, turn by turn, so
// that a log can be replayed through the runtime's own agent loop: its hooks decide, its tools run. Only
// what the model wrote is scripted (replies, tool calls, attempts a hook rejected); block, fallback and
// feedback turns are the runtime's and are made again by it.
import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatModel,
  ChatRequest,
} from '../../runtime/chat-model.js';
import type { AssistantMessage, Trajectory } from '../../trajectory/schema.js';

/**
 * The assistant messages the model wrote, per user turn, in order.
 *
 * @example
 * const model = new ScriptedModel(scriptedTurns(gold));
 */
export function scriptedTurns(trajectory: Trajectory): AssistantMessage[][] {
  const turns: AssistantMessage[][] = [];
  for (const message of trajectory.messages) {
    if (message.role === 'user' && !message.hsa) turns.push([]);
    else if (
      message.role === 'assistant' &&
      (!message.hsa || message.hsa.event === 'hook_rejected') &&
      turns.length > 0
    )
      turns[turns.length - 1]!.push(message);
  }
  return turns;
}

/**
 * The user messages of a trajectory, one per turn.
 *
 * @example
 * userMessages(gold) // ['link 3 price?', 'and in M?']
 */
export function userMessages(trajectory: Trajectory): string[] {
  return trajectory.messages.flatMap((message) =>
    message.role === 'user' && !message.hsa ? [message.content] : [],
  );
}

/**
 * A ChatModel that plays a script: `startTurn(k)` points it at turn k, and each completion is the turn's
 * next scripted message. Past the end of a turn's script it repeats the turn's last reply (or an empty
 * reply) and records a deviation, so a harness that asks for more than the log holds still ends the turn.
 *
 * @example
 * const model = new ScriptedModel(scriptedTurns(gold));
 * model.startTurn(0); await runTurn(episode, model);
 */
export class ScriptedModel implements ChatModel {
  /** Where the play left the script, in order. */
  readonly deviations: string[] = [];
  private turn = 0;
  private step = 0;
  private completions = 0;

  constructor(
    private readonly turns: readonly (readonly AssistantMessage[])[],
    private readonly name = 'scripted',
  ) {}

  startTurn(turn: number): void {
    this.turn = turn;
    this.step = 0;
  }

  async complete(_request: ChatRequest): Promise<ChatCompletion> {
    const script = this.turns[this.turn] ?? [];
    let next = script[this.step];
    if (!next) {
      this.deviations.push(
        `turn ${this.turn}: the harness asked for step ${this.step + 1}, the log has ${script.length}`,
      );
      const reply = [...script].reverse().find((message) => !message.tool_calls);
      next = { role: 'assistant', content: reply?.content ?? '' };
    }
    this.step++;
    const message: ChatCompletionMessage = { role: 'assistant', content: next.content };
    if (next.tool_calls) message.tool_calls = next.tool_calls.map((call) => structuredClone(call));
    return {
      id: `${this.name}-${this.completions++}`,
      object: 'chat.completion',
      created: 0,
      model: this.name,
      choices: [{ index: 0, message, finish_reason: next.tool_calls ? 'tool_calls' : 'stop' }],
    };
  }
}
