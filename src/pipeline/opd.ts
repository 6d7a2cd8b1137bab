// The OPD stage: a general-domain prompt set (JSONL of chat prompts with verifiable constraints) becomes
// TRL on-policy distillation data — prompt-only rows for DistillationTrainer (and GOLD-style trainers) and
// `messages` rows for GKDTrainer, where a reference answer passes its prompt's own constraints — plus a
// config snippet naming the pre-SFT base model as the teacher, as the HAT recipe does: distilling from
// the base model recovers the instruction following that domain SFT wore away. Rows keep the file order.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { formatIssue, type Issue } from '../harness/issues.js';
import { jsonLine, writeJsonLines } from '../harness/json-lines.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { writeFileAtomic } from '../harness/write-file-atomic.js';
import { readJsonl } from '../trajectory/read-jsonl.js';
import { type Constraint, ConstraintSchema, checkConstraints } from './opd-constraints.js';

const PromptMessageSchema = z.strictObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});

/**
 * One line of an OPD prompt file.
 *
 * @example
 * const prompt = OpdPromptSchema.parse(JSON.parse(line));
 */
export const OpdPromptSchema = z.strictObject({
  id: z.string().min(1),
  messages: z
    .array(PromptMessageSchema)
    .min(1)
    .refine((messages) => messages.at(-1)?.role === 'user', 'the last message must be the user’s'),
  constraints: z.array(ConstraintSchema).default([]),
  /** An answer that meets the constraints; it becomes the assistant turn of the GKD row. */
  reference: z.string().min(1).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/**
 * One line of the OPD prompt set: a general instruction prompt, its constraints and an optional reference.
 */
export type OpdPrompt = z.output<typeof OpdPromptSchema>;

/**
 * The `opd` section of a pipeline configuration.
 *
 * @example
 * const opd = OpdConfigSchema.parse(config.opd);
 */
export const OpdConfigSchema = z.strictObject({
  /** The prompt set (JSONL). */
  prompts: z.string().min(1),
  /** The teacher: the base model before SFT (a Hugging Face id or path). */
  teacher: z.string().min(1),
  /** The student: the SFT checkpoint (default `checkpoints/sft`, where the SFT step of the snippet saves). */
  student: z.string().min(1).default('checkpoints/sft'),
  /** GKD's λ: the share of student-generated (on-policy) sequences; 1 is fully on-policy. */
  lmbda: z.number().min(0).max(1).default(1),
  /** GKD's β: 0 forward KL, 1 reverse KL, between them the generalised JSD. */
  beta: z.number().min(0).max(1).default(0.5),
  maxNewTokens: z.int().min(1).default(512),
  temperature: z.number().min(0).default(0.9),
});

/** The `opd` section of a pipeline configuration, defaults applied (`OpdConfigSchema`). */
export type OpdConfig = z.output<typeof OpdConfigSchema>;

/** A prompt line that became no row, or a reference that became no GKD row. */
export interface OpdReject {
  /** `prompt`: no row at all; `reference`: the prompt-only row is kept, the GKD row is not. */
  scope: 'prompt' | 'reference';
  reason: 'syntax_error' | 'invalid_prompt' | 'duplicate_id' | 'reference_fails_constraints';
  line: number;
  id?: string;
  issues: Issue[];
}

/**
 * What the OPD stage wrote: lines read, distillation and GKD rows, rejects by reason, teacher and student.
 */
export interface OpdSummary {
  /** Prompt lines read (= distillation rows + prompt rejects). */
  read: number;
  rows: { distillation: number; gkd: number };
  /** Prompts without a reference (prompt-only rows, no GKD row). */
  withoutReference: number;
  rejected: number;
  byReason: Record<string, number>;
  teacher: string;
  student: string;
  files: string[];
}

/** The chat messages of a GKD row: the prompt and the reference as the assistant turn. */
type ChatRow = Array<{ role: string; content: string }>;

function reject(
  line: number,
  scope: OpdReject['scope'],
  reason: OpdReject['reason'],
  issues: Issue[],
  id?: string,
): OpdReject {
  return { scope, reason, line, ...(id ? { id } : {}), issues };
}

/** The TRL training script the snippet describes: GKDTrainer (or DistillationTrainer) with the base model as teacher. */
function trainingScript(): string {
  return `# On-policy distillation after SFT, written by harness-augment. The student is the SFT checkpoint; the
# teacher is the pre-SFT base model (opd.yaml), as in the HAT recipe. Run: python train_opd.py opd.yaml
import sys

import yaml
from datasets import load_dataset
from transformers import AutoTokenizer
# GKD lives in trl.experimental since TRL 0.29 (\`from trl import GKDConfig\` fails on TRL 1.x).
from trl.experimental.gkd import GKDConfig, GKDTrainer


def main(config_file):
    with open(config_file) as handle:
        config = yaml.safe_load(handle)
    # GKDTrainer reads \`messages\`; with lmbda = 1 every batch is generated by the student (on-policy).
    dataset = load_dataset("json", data_files=config["datasets"]["gkd"], split="train")
    args = GKDConfig(output_dir=config["output_dir"], **config["gkd"])
    trainer = GKDTrainer(
        model=config["student_model"],
        teacher_model=config["teacher_model"],
        args=args,
        train_dataset=dataset,
        # GKDTrainer builds its collator from the tokenizer before it loads the model: pass it.
        processing_class=AutoTokenizer.from_pretrained(config["student_model"]),
    )
    trainer.train()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "opd.yaml")
`;
}

/**
 * Writes the OPD stage's files into `outDir`: `distillation.jsonl` (prompt-only), `gkd.jsonl` (messages),
 * `rejects.jsonl`, `opd.yaml` (teacher, student, datasets, hyperparameters) and `train_opd.py`.
 *
 * @example
 * const summary = await runOpd({ prompts: 'fixtures/opd/prompts.jsonl', teacher: 'Qwen/Qwen3-4B' }, 'out/pipeline/opd');
 * summary.rows.distillation // 52
 */
export async function runOpd(
  input: z.input<typeof OpdConfigSchema>,
  outDir: string,
  options: { shard?: { index: number; count: number } } = {},
): Promise<OpdSummary> {
  const config = OpdConfigSchema.parse(input);
  // A shard keeps the lines at its positions (every line counts, as the SFT inputs do); ids are tracked over all.
  const mine = (position: number) => !options.shard || position % options.shard.count === options.shard.index;
  const distillation: string[] = [];
  const gkd: string[] = [];
  const rejects: OpdReject[] = [];
  const seen = new Set<string>();
  let read = 0;
  let withoutReference = 0;
  let position = 0;
  for await (const record of readJsonl(config.prompts)) {
    if (!mine(position++)) {
      // Another shard's line: its id still counts for duplicates, as it would in one run.
      const other = 'value' in record ? OpdPromptSchema.safeParse(record.value) : undefined;
      if (other?.success) seen.add(other.data.id);
      continue;
    }
    read++;
    if ('issue' in record) {
      rejects.push(reject(record.line, 'prompt', 'syntax_error', [record.issue]));
      continue;
    }
    const parsed = OpdPromptSchema.safeParse(record.value);
    if (!parsed.success) {
      const issues = fromZodIssues(parsed.error.issues).map((issue) => ({
        ...issue,
        file: config.prompts,
        line: record.line,
      }));
      const id = (record.value as { id?: unknown } | null)?.id;
      rejects.push(
        reject(record.line, 'prompt', 'invalid_prompt', issues, typeof id === 'string' ? id : undefined),
      );
      continue;
    }
    const prompt = parsed.data;
    if (seen.has(prompt.id)) {
      rejects.push(
        reject(
          record.line,
          'prompt',
          'duplicate_id',
          [
            {
              code: 'duplicate_id',
              path: ['id'],
              message: `id "${prompt.id}" appears on an earlier line`,
              file: config.prompts,
              line: record.line,
            },
          ],
          prompt.id,
        ),
      );
      continue;
    }
    seen.add(prompt.id);
    distillation.push(jsonLine({ id: prompt.id, prompt: prompt.messages }));
    if (prompt.reference === undefined) {
      withoutReference++;
      continue;
    }
    const failures = checkConstraints(prompt.reference, prompt.constraints as Constraint[]);
    if (failures.length > 0) {
      rejects.push(
        reject(
          record.line,
          'reference',
          'reference_fails_constraints',
          failures.map((failure) => ({
            code: 'reference_fails_constraints',
            path: ['constraints', failure.index],
            message: failure.message,
            file: config.prompts,
            line: record.line,
          })),
          prompt.id,
        ),
      );
      continue;
    }
    const messages: ChatRow = [...prompt.messages, { role: 'assistant', content: prompt.reference }];
    gkd.push(jsonLine({ id: prompt.id, messages }));
  }
  await mkdir(outDir, { recursive: true });
  const files = {
    distillation: join(outDir, 'distillation.jsonl'),
    gkd: join(outDir, 'gkd.jsonl'),
    rejects: join(outDir, 'rejects.jsonl'),
    config: join(outDir, 'opd.yaml'),
    script: join(outDir, 'train_opd.py'),
  };
  await writeFileAtomic(files.distillation, distillation.join(''));
  await writeFileAtomic(files.gkd, gkd.join(''));
  await writeJsonLines(
    files.rejects,
    rejects.map((entry) => ({ ...entry, reason_text: formatIssue(entry.issues[0]!) })),
  );
  const snippet = {
    teacher_model: config.teacher,
    student_model: config.student,
    output_dir: 'checkpoints/opd',
    datasets: { distillation: 'distillation.jsonl', gkd: 'gkd.jsonl' },
    gkd: {
      lmbda: config.lmbda,
      beta: config.beta,
      max_new_tokens: config.maxNewTokens,
      temperature: config.temperature,
    },
  };
  await writeFileAtomic(
    files.config,
    `# On-policy distillation: the pre-SFT base model teaches the SFT checkpoint (HAT recipe).\n${stringify(snippet)}`,
  );
  await writeFileAtomic(files.script, trainingScript());
  const byReason: Record<string, number> = {};
  for (const entry of rejects) byReason[entry.reason] = (byReason[entry.reason] ?? 0) + 1;
  const promptRejects = rejects.filter((entry) => entry.scope === 'prompt').length;
  return {
    read,
    rows: { distillation: distillation.length, gkd: gkd.length },
    withoutReference,
    rejected: promptRejects,
    byReason: Object.fromEntries(Object.entries(byReason).sort(([a], [b]) => (a < b ? -1 : 1))),
    teacher: config.teacher,
    student: config.student,
    files: Object.values(files),
  };
}
