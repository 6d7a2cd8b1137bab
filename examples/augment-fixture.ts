// Augment a few fixture trajectories with the `hat` policy, then check a row's certificate and map a model
// output under the variant back to the base vocabulary.
// Run: npx tsx examples/augment-fixture.ts
import {
  type AugmentRow,
  augment,
  builtinOperators,
  certify,
  compilePolicy,
  createRegistry,
  invertOutput,
  loadHarnessFile,
  parsePolicy,
  presets,
  readJsonl,
} from 'harness-augment';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

const firstFive: unknown[] = [];
for await (const record of readJsonl('fixtures/livestream/trajectories.jsonl')) {
  if ('value' in record) firstFive.push(record.value);
  if (firstFive.length === 5) break;
}

const rows: AugmentRow[] = [];
for await (const row of augment(harness, firstFive, { plan, variants: 2, seed: 'example' })) rows.push(row);
console.log(`${rows.length} certified rows`);

// A model answering under the variant calls the variant's tool names; `invertOutput` maps a call back. Pick a row
// whose relabel renames a tool the trajectory calls.
const names = (message: { role: string; tool_calls?: Array<{ function: { name: string } }> }) =>
  message.role === 'assistant' ? (message.tool_calls ?? []).map((toolCall) => toolCall.function.name) : [];
const renamedCall = (candidate: AugmentRow) =>
  candidate.trajectory.messages.find(
    (message) =>
      message.role === 'assistant' &&
      !message.hsa &&
      names(message).some((name) => name !== candidate.harness.skills.loader.tool) &&
      names(message).join() !== names(invertOutput(message, candidate.relabel)).join(),
  );
const row = rows.find((candidate) => renamedCall(candidate) !== undefined) ?? rows[0];
if (!row) throw new Error('no rows');
console.log(`${row.id}: ${row.provenance.ops.map((record) => record.name).join(' → ')}`);

// The certificate can be re-checked at any time from the row alone plus the original.
const original = firstFive.find((trajectory) => (trajectory as { id: string }).id === row.exampleId);
console.log(
  're-certified:',
  certify({
    base: harness,
    variant: row.harness,
    original: original as never,
    rewritten: row.trajectory,
    relabel: row.relabel,
  }).certified,
);

const call = renamedCall(row);
if (call) {
  const back = invertOutput(call, row.relabel);
  console.log(`under the variant: ${names(call).join(', ')}  →  base: ${names(back).join(', ')}`);
}
