import type { Command } from 'commander';
import type { AugmentRow } from '../../augment/augment.js';
import { readDocument } from '../../harness/documents.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { invertOutput } from '../../trajectory/relabel.js';
import { type Message, MessageSchema } from '../../trajectory/schema.js';
import { nonNegativeInteger } from '../io.js';
import { outOption, prepareOutputFile, writeProduct } from '../output.js';
import { readRows, sidecarOptionText } from '../rows.js';

/** Accepts a message, an array of messages, or a Chat Completions response. */
function messagesOf(value: unknown): { messages: Message[]; shape: 'message' | 'array' | 'completion' } {
  const completion = value as { choices?: Array<{ message?: unknown }> } | null;
  if (completion && Array.isArray(completion.choices)) {
    return {
      messages: completion.choices.map((choice) => MessageSchema.parse(choice.message)),
      shape: 'completion',
    };
  }
  if (Array.isArray(value))
    return { messages: value.map((item) => MessageSchema.parse(item)), shape: 'array' };
  return { messages: [MessageSchema.parse(value)], shape: 'message' };
}

export function registerInvert(program: Command): void {
  program
    .command('invert')
    .description("map a model's output under a variant back to the base harness vocabulary")
    .requiredOption('--rows <file>', 'rows JSONL written by hsa augment')
    .requiredOption('--id <id>', 'row id (exampleId/variantIndex) or variantId')
    .requiredOption(
      '--output <file>',
      'the model output: an assistant message, an array of messages, or a Chat Completions response',
    )
    .option(
      '--turn <n>',
      'the user turn the output answers (1 = first user message); merged skills map back to the source the gold loaded in that turn',
    )
    .addOption(outOption('file', 'write the result to a file instead of standard output'))
    .option('--sidecar <files...>', sidecarOptionText)
    .action(
      async (options: {
        rows: string;
        id: string;
        output: string;
        out?: string;
        turn?: string;
        sidecar?: string[];
      }) => {
        if (options.out !== undefined) await prepareOutputFile(options.out);
        const turn = options.turn === undefined ? undefined : nonNegativeInteger('--turn', options.turn);
        let row: AugmentRow | undefined;
        for await (const found of readRows(options.rows, options.id, options.sidecar)) row = found;
        if (!row) throw new HarnessAugmentError(`no row ${options.id}`, { kind: 'usage' });
        const { value } = await readDocument(options.output);
        let parsed: ReturnType<typeof messagesOf>;
        try {
          parsed = messagesOf(value);
        } catch (error) {
          throw new HarnessAugmentError(
            `${options.output}: not a message, a message array or a Chat Completions response: ${(error as Error).message.split('\n')[0]}`,
            {
              kind: 'usage',
            },
          );
        }
        const inverted = invertOutput(parsed.messages, row.relabel, turn === undefined ? {} : { turn });
        const result =
          parsed.shape === 'message'
            ? inverted[0]
            : parsed.shape === 'array'
              ? inverted
              : {
                  ...(value as object),
                  choices: (value as { choices: object[] }).choices.map((choice, index) => ({
                    ...choice,
                    message: inverted[index],
                  })),
                };
        await writeProduct('result', result, JSON.stringify(result, null, 2), options.out);
      },
    );
}
