// The Python dataset class written next to the veRL parquet file, run against a stand-in for veRL's
// MultiTurnSFTDataset and a recording tokenizer: the chat template must receive the tools as a list and
// each tool call's arguments as an object, with the null parquet fields gone. Needs python3 (skipped
// where there is none; veRL itself is not installed here).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verlDatasetClassName, verlDatasetClassSource } from '../../../src/adapters/trainer/index.js';

const python = spawnSync('python3', ['--version']).status === 0;
const scratch = await mkdtemp(join(tmpdir(), 'hsa-verl-class-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const standIn = `
class MultiTurnSFTDataset:
    def __init__(self, parquet_files, tokenizer, config, processor=None, max_samples=-1):
        self.tokenizer = tokenizer
        self.processor = processor

    def render(self, messages, tools):
        return self.tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)
`;

const script = `
import json
from hsa_verl_dataset import ${verlDatasetClassName}

class RecordingTokenizer:
    def apply_chat_template(self, conversation, tools=None, **kwargs):
        return {"messages": conversation, "tools": tools, "kwargs": kwargs}

tokenizer = RecordingTokenizer()
messages = [
    {"role": "user", "content": "3号链接多少钱？", "name": None, "tool_calls": None, "tool_call_id": None},
    {"role": "assistant", "content": None, "name": None, "tool_call_id": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_price", "arguments": "{\\"link_id\\": 3}"}}]},
]
first = ${verlDatasetClassName}("train.parquet", tokenizer, {})
${verlDatasetClassName}("val.parquet", tokenizer, {})  # a second dataset on the same tokenizer wraps it once more, harmlessly
print(json.dumps([first.render(messages, '[{"type": "function"}]'), first.render(messages, None)], ensure_ascii=False))
`;

describe('hsa_verl_dataset.py', () => {
  it.skipIf(!python)('decodes tools and arguments before the chat template sees them', async () => {
    await mkdir(join(scratch, 'verl/utils/dataset'), { recursive: true });
    for (const init of ['verl', 'verl/utils', 'verl/utils/dataset'])
      await writeFile(join(scratch, init, '__init__.py'), '');
    await writeFile(join(scratch, 'verl/utils/dataset/multiturn_sft_dataset.py'), standIn);
    await writeFile(join(scratch, 'hsa_verl_dataset.py'), verlDatasetClassSource());
    await writeFile(join(scratch, 'check.py'), script);
    const run = spawnSync('python3', ['check.py'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: scratch },
    });
    expect(run.stderr).toBe('');
    const [withTools, withoutTools] = JSON.parse(run.stdout);
    expect(withTools.tools).toEqual([{ type: 'function' }]);
    expect(withTools.kwargs).toEqual({ tokenize: false });
    expect(withTools.messages).toEqual([
      { role: 'user', content: '3号链接多少钱？' },
      {
        role: 'assistant',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_price', arguments: { link_id: 3 } } },
        ],
      },
    ]);
    expect(withoutTools.tools).toBeNull();
  });
});
