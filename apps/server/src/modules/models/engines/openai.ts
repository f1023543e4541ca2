import { EngineError, type ChatEngine, type EngineRequest, type EngineResult } from './engine.js';

interface StreamChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/**
 * The `openai` engine: the model is served by an OpenAI-compatible server (vLLM, SGLang, Ollama, a
 * model instance) at the model's `upstream_url`, asked to stream with `include_usage` so that the counts
 * are the serving engine's. A server that does not report usage is counted by its stream: one token per
 * content chunk (vLLM and SGLang send one per token) and the prompt's characters / 2 (documented).
 */
export class OpenAiEngine implements ChatEngine {
  constructor(private readonly fetchImpl: typeof fetch = fetch) {}

  async run(request: EngineRequest, signal: AbortSignal, onText: (text: string) => void): Promise<EngineResult> {
    const base = request.model.upstreamUrl?.replace(/\/+$/, '');
    if (!base) throw new EngineError('该模型未配置上游服务地址，请联系平台运营', 'unavailable');
    let response: Response;
    try {
      response = await this.fetchImpl(`${base}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(request.model.upstreamKey ? { authorization: `Bearer ${request.model.upstreamKey}` } : {}) },
        body: JSON.stringify({
          model: request.model.engineModel,
          messages: request.messages,
          max_tokens: request.maxTokens,
          temperature: request.temperature,
          top_p: request.topP,
          stop: request.stop,
          stream: true,
          stream_options: { include_usage: true },
        }),
        signal,
      });
    } catch (error) {
      if (signal.aborted) return { inputTokens: 0, outputTokens: 0, finishReason: 'aborted' };
      throw new EngineError(`模型服务无法连接（${error instanceof Error ? error.message : String(error)}）`, 'unavailable');
    }
    if (!response.ok || !response.body) {
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      if (response.status === 429) throw new EngineError('模型服务繁忙，请稍后再试', 'busy');
      if (response.status === 400) throw new EngineError(`模型服务拒绝了请求：${detail}`, 'invalid');
      throw new EngineError(`模型服务出错（HTTP ${response.status}）`, 'unavailable');
    }
    let chunks = 0;
    let usage: StreamChunk['usage'] = null;
    let finish: string | null = null;
    let buffered = '';
    const decoder = new TextDecoder();
    try {
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(bytes, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') continue;
          let chunk: StreamChunk;
          try {
            chunk = JSON.parse(data) as StreamChunk;
          } catch {
            continue;
          }
          if (chunk.usage) usage = chunk.usage;
          for (const choice of chunk.choices ?? []) {
            if (choice.delta?.content) {
              chunks += 1;
              onText(choice.delta.content);
            }
            if (choice.finish_reason) finish = choice.finish_reason;
          }
        }
      }
    } catch (error) {
      if (!signal.aborted) throw new EngineError(`模型服务中断（${error instanceof Error ? error.message : String(error)}）`, 'unavailable', this.counted(request, usage, chunks));
    }
    const counted = this.counted(request, usage, chunks);
    return { ...counted, finishReason: signal.aborted ? 'aborted' : finish === 'length' ? 'length' : 'stop' };
  }

  private counted(request: EngineRequest, usage: StreamChunk['usage'], chunks: number): Pick<EngineResult, 'inputTokens' | 'outputTokens'> {
    if (usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number') {
      return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
    }
    const characters = request.messages.reduce((sum, message) => sum + JSON.stringify(message.content).length, 0);
    return { inputTokens: Math.ceil(characters / 2), outputTokens: chunks };
  }
}
