// hsa_verl_dataset.py over the real veRL export of the 396 live-stream trajectories, in the shapes veRL's
// MultiTurnSFTDataset hands them to the chat template: pandas reads parquet lists as numpy arrays of
// dicts holding more arrays (its sanity_check passes the row's `messages` as it is), and the per-turn path
// passes `messages=[message]` by keyword through verl.utils.chat_template. The stand-in tokenizer behaves
// like a Jinja template on what it gets (`if message.tool_calls` on an array raises numpy's "truth value
// of an array is ambiguous"; a string `arguments` would be `tojson`-ed a second time). Needs python3 with
// numpy (skipped otherwise); real numpy, no stand-in.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { trainerExporters, verlDatasetClassName } from '../../../src/adapters/trainer/index.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { projectRoot } from '../../support/run-cli.js';

const numpy = spawnSync('python3', ['-c', 'import numpy']).status === 0;
const scratch = await mkdtemp(join(tmpdir(), 'hsa-verl-shapes-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const standIn = `
class MultiTurnSFTDataset:
    def __init__(self, parquet_files, tokenizer, config, processor=None, max_samples=-1):
        self.tokenizer = tokenizer
        self.processor = processor
`;

const script = `
import json, sys
import numpy as np
from hsa_verl_dataset import ${verlDatasetClassName}

def like_pandas(value):
    # pyarrow's to_pandas: a list becomes a 1-D object ndarray, a struct a dict, a null None.
    if isinstance(value, list):
        array = np.empty(len(value), dtype=object)
        for index, item in enumerate(value):
            array[index] = like_pandas(item)
        return array
    if isinstance(value, dict):
        return {key: like_pandas(item) for key, item in value.items()}
    return value

class TemplateLikeTokenizer:
    """Fails the way a Jinja chat template does on what veRL's stock path would hand it."""
    def apply_chat_template(self, conversation, tools=None, **kwargs):
        assert isinstance(conversation, list), type(conversation).__name__
        for message in conversation:
            assert isinstance(message, dict)
            assert all(value is not None for value in message.values()), "a null field reaches the template"
            if message.get("tool_calls"):
                for call in message["tool_calls"]:
                    assert isinstance(call["function"]["arguments"], dict), "arguments are not a mapping"
        assert tools is None or (isinstance(tools, list) and all(isinstance(tool, dict) for tool in tools)), "tools"
        return json.dumps({"messages": conversation, "tools": tools}, ensure_ascii=False)

rows = json.load(open(sys.argv[1]))
dataset = ${verlDatasetClassName}("train.parquet", TemplateLikeTokenizer(), {})
tokenizer = dataset.tokenizer
passed, failures, whole = 0, [], None
for row in rows:
    messages, tools = like_pandas(row["messages"]), row["tools"]
    try:
        whole = json.loads(tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=False, tokenize=False))
        for message in messages:
            tokenizer.apply_chat_template(messages=[message], tools=tools, tokenize=False)
        passed += 1
    except Exception as error:
        failures.append(f"{row['id']}: {type(error).__name__}: {error}")
print(json.dumps({"rows": len(rows), "passed": passed, "failures": failures[:3], "sample": whole}, ensure_ascii=False))
`;

describe('hsa_verl_dataset.py over veRL row shapes', () => {
  it.skipIf(!numpy)('decodes every row of the live-stream export as veRL hands it over', async () => {
    const examples = readFileSync(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const trajectory = JSON.parse(line) as Trajectory;
        return { id: trajectory.id, messages: trajectory.messages, tools: trajectory.tools ?? [] };
      });
    const sink = await (trainerExporters.verl as NonNullable<typeof trainerExporters.verl>).open(
      join(scratch, 'verl'),
    );
    for (const example of examples) await sink.write(example);
    const summary = await sink.close();
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(summary.files[0] as string) });
    await writeFile(join(scratch, 'rows.json'), JSON.stringify(rows));
    await mkdir(join(scratch, 'verl/utils/dataset'), { recursive: true });
    for (const init of ['verl', 'verl/utils', 'verl/utils/dataset'])
      await writeFile(join(scratch, init, '__init__.py'), '');
    await writeFile(join(scratch, 'verl/utils/dataset/multiturn_sft_dataset.py'), standIn);
    await writeFile(
      join(scratch, 'hsa_verl_dataset.py'),
      readFileSync(join(join(scratch, 'verl'), 'hsa_verl_dataset.py'), 'utf8'),
    );
    await writeFile(join(scratch, 'check.py'), script);
    const run = spawnSync('python3', ['check.py', 'rows.json'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: scratch },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(summary.rows);
    expect(summary.rows).toBeGreaterThan(300);
    const call = result.sample.messages.find((message: { tool_calls?: unknown }) => message.tool_calls);
    expect(typeof call.tool_calls[0].function.arguments).toBe('object');
  });
});
