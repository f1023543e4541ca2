/** Fixtures of the 模型 tests (imported by *.test.tsx only). */
import type { ModelView } from '../../api/models';

export function model(overrides: Partial<ModelView> & Pick<ModelView, 'id' | 'name'>): ModelView {
  return {
    provider: '算力港',
    type: 'text',
    description: '',
    tags: [],
    contextLength: 4096,
    paramSize: '',
    license: '',
    inputPriceFen: 0,
    outputPriceFen: 0,
    engine: 'local',
    isTest: false,
    ...overrides,
  };
}

export const TINY = model({
  id: 'slg-tiny-test',
  name: 'SLG Tiny（测试）',
  description: '平台生成的测试模型，回答没有意义',
  tags: ['测试', 'GGUF'],
  contextLength: 2048,
  paramSize: '0.1M',
  license: 'MIT',
  inputPriceFen: 100,
  outputPriceFen: 200,
  isTest: true,
});

export const QWEN = model({
  id: 'qwen2.5-7b-instruct',
  name: 'Qwen2.5-7B-Instruct',
  provider: '阿里云',
  description: '通义千问 2.5 指令模型',
  tags: ['对话'],
  contextLength: 32768,
  paramSize: '7B',
  license: 'Apache-2.0',
  inputPriceFen: 50,
  outputPriceFen: 150,
  engine: 'openai',
});

export const VL = model({
  id: 'qwen2.5-vl-7b',
  name: 'Qwen2.5-VL-7B',
  provider: '阿里云',
  type: 'visual',
  contextLength: 128000,
  paramSize: '7B',
  inputPriceFen: 0,
  outputPriceFen: 0,
  engine: 'openai',
});

/**
 * A Server-Sent Events body the test writes piece by piece; the request's signal errors it like a
 * real fetch does when aborted.
 */
export function sseBody() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const write = (text: string) => controller?.enqueue(encoder.encode(text));
  return {
    response(signal?: AbortSignal | null): Response {
      signal?.addEventListener('abort', () => {
        try {
          controller?.error(new DOMException('The operation was aborted.', 'AbortError'));
        } catch {
          // Already closed.
        }
      });
      return new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
    },
    write,
    /** One event: `data: <json>` and the blank line. */
    data(payload: unknown) {
      write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
    },
    delta(content: string) {
      this.data({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    },
    finish(reason = 'stop') {
      this.data({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: reason }] });
    },
    usage(usage: Record<string, number>) {
      this.data({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage });
    },
    done() {
      this.data('[DONE]');
      controller?.close();
    },
  };
}

/** An error in OpenAI's shape, as the API answers a refused call. */
export function openAiError(status: number, message: string, code: string, type = 'invalid_request_error'): Response {
  return new Response(JSON.stringify({ error: { message, type, param: null, code } }), { status, headers: { 'Content-Type': 'application/json' } });
}
