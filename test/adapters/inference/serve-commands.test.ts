// Golden serve commands for vLLM and SGLang, with and without speculative decoding, and the rejection of
// speculative settings that would fail at server start. Update on purpose with
// UPDATE_GOLDEN=1 npx vitest run test/adapters/inference/serve-commands.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSglangServeCommand,
  buildVllmServeCommand,
  parseSpeculativeConfig,
  type ServeOptions,
  shellLine,
  toolParserFor,
  toolParsers,
} from '../../../src/adapters/inference/index.js';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { projectRoot } from '../../support/run-cli.js';

const goldenFile = join(projectRoot, 'test/golden/inference/serve-commands.json');

const cases: Array<{ name: string; options: ServeOptions }> = [
  { name: 'plain', options: { model: 'Qwen/Qwen3-0.6B', toolParser: 'qwen', port: 8100 } },
  {
    name: 'ngram',
    options: {
      model: 'Qwen/Qwen3-0.6B',
      toolParser: 'qwen',
      chatTemplate: 'templates/tool_chat.jinja',
      speculative: { method: 'ngram', num_speculative_tokens: 4, prompt_lookup_max: 4, prompt_lookup_min: 2 },
    },
  },
  {
    name: 'eagle3',
    options: {
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      toolParser: 'llama3',
      servedModelName: 'agent',
      speculative: {
        method: 'eagle3',
        model: 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B',
        num_speculative_tokens: 3,
      },
      maxModelLength: 16384,
      gpuMemoryShare: 0.85,
    },
  },
  {
    name: 'draft-model',
    options: {
      model: 'Qwen/Qwen3-8B',
      toolParser: 'qwen',
      speculative: { method: 'draft_model', model: 'Qwen/Qwen3-0.6B', num_speculative_tokens: 5 },
      tensorParallelSize: 2,
    },
  },
  {
    name: 'mtp',
    options: {
      model: 'deepseek-ai/DeepSeek-V3',
      toolParser: 'deepseek-v3',
      speculative: { method: 'mtp', num_speculative_tokens: 1 },
    },
  },
];

function render() {
  const result: Record<string, { vllm: string; sglang: string }> = {};
  for (const { name, options } of cases)
    result[name] = {
      vllm: shellLine(buildVllmServeCommand(options)),
      sglang: shellLine(buildSglangServeCommand(options)),
    };
  return `${JSON.stringify(result, null, 2)}\n`;
}

describe('serve commands', () => {
  it('match the golden command lines', () => {
    const text = render();
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(goldenFile)) writeFileSync(goldenFile, text);
    expect(text).toBe(readFileSync(goldenFile, 'utf8'));
  });

  it('pass the speculative settings to vLLM as one JSON argument that parses back to them', () => {
    const speculative = { method: 'eagle', model: 'org/draft', num_speculative_tokens: 3, eagle_topk: 4 };
    const command = buildVllmServeCommand({ model: 'm', speculative });
    const json = command.args[command.args.indexOf('--speculative-config') + 1]!;
    // The SGLang-only tree width stays out of vLLM's config.
    expect(JSON.parse(json)).toEqual({ method: 'eagle', model: 'org/draft', num_speculative_tokens: 3 });
    const sglang = buildSglangServeCommand({ model: 'm', speculative }).args;
    expect(
      sglang.slice(sglang.indexOf('--speculative-algorithm'), sglang.indexOf('--speculative-algorithm') + 2),
    ).toEqual(['--speculative-algorithm', 'EAGLE']);
    expect(sglang[sglang.indexOf('--speculative-eagle-topk') + 1]).toBe('4');
  });

  it('say where the server will answer', () => {
    const vllm = buildVllmServeCommand({ model: 'm', host: '0.0.0.0', port: 9000 });
    expect([vllm.baseURL, vllm.healthURL, vllm.metricsURL]).toEqual([
      'http://127.0.0.1:9000/v1',
      'http://127.0.0.1:9000/health',
      'http://127.0.0.1:9000/metrics',
    ]);
    expect(buildSglangServeCommand({ model: 'm' }).baseURL).toBe('http://127.0.0.1:30000/v1');
  });

  it.each([
    [
      { method: 'medusa', num_speculative_tokens: 3 },
      'method must be one of ngram, eagle, eagle3, mtp, draft_model',
    ],
    [{ method: 'eagle3', num_speculative_tokens: 3 }, 'model'],
    [{ method: 'ngram', num_speculative_tokens: 0 }, 'num_speculative_tokens'],
    [{ method: 'ngram', num_speculative_tokens: '4' }, 'num_speculative_tokens'],
  ])('reject the speculative config %j with a message naming the field', (speculative, named) => {
    for (const build of [buildVllmServeCommand, buildSglangServeCommand]) {
      let caught: unknown;
      try {
        build({ model: 'm', speculative });
      } catch (error) {
        caught = error;
      }
      expect(HarnessAugmentError.isInstance(caught)).toBe(true);
      expect((caught as Error).message).toContain('speculative config is invalid');
      expect((caught as Error).message).toContain(named);
    }
    expect(() => parseSpeculativeConfig(speculative)).toThrow(named);
  });

  it('map tool-call parser families to each engine and explain the other engine’s names', () => {
    expect([toolParserFor('vllm', 'qwen'), toolParserFor('sglang', 'qwen')]).toEqual(['hermes', 'qwen25']);
    expect([toolParserFor('vllm', 'gpt-oss'), toolParserFor('sglang', 'gpt-oss')]).toEqual([
      'openai',
      'gpt-oss',
    ]);
    expect(toolParserFor('sglang', 'llama3')).toBe('llama3');
    expect(() => toolParserFor('vllm', 'qwen25')).toThrow(
      /"qwen25" is sglang's name; vllm calls it "hermes"/,
    );
    expect(buildVllmServeCommand({ model: 'm', toolParserName: 'granite' }).args).toContain('granite');
  });

  it('give SGLang only parser names its registry holds (llama4 is parsed as pythonic)', () => {
    // The keys of FunctionCallParser.ToolCallParserEnum in sgl-project/sglang
    // python/sglang/srt/function_call/function_call_parser.py @ 00828e568a00 (`--tool-call-parser` choices).
    const sglangParsers = new Set(
      'apertus2509 cohere_command4 deepseekv3 deepseekv31 deepseekv32 deepseekv4 dots glm glm45 glm47 gpt-oss k2_horizon kimi_k2 kimi_k3 lfm2 ling3 llama3 mimo minicpm5 mistral muse poolside_v1 pythonic qwen qwen25 qwen3_coder spark25 step3 step3p5 minimax-m2 minimax-m3 trinity interns1 hermes hunyuan gigachat3 gigachat35 gemma4 inkling'.split(
        ' ',
      ),
    );
    for (const family of Object.keys(toolParsers)) {
      const args = buildSglangServeCommand({ model: 'm', toolParser: family }).args;
      expect(sglangParsers.has(args[args.indexOf('--tool-call-parser') + 1]!), family).toBe(true);
    }
    const llama4 = buildSglangServeCommand({ model: 'm', toolParser: 'llama4' }).args;
    expect(llama4[llama4.indexOf('--tool-call-parser') + 1]).toBe('pythonic');
  });
});
