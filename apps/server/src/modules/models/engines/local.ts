import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Llama, LlamaModel } from 'node-llama-cpp';
import { EngineError, textOf, type ChatEngine, type EngineRequest, type EngineResult } from './engine.js';

/** A GGUF file name in MODELS_DIR: no folders, no way out of it. */
const MODEL_FILE = /^[\w.-]+\.gguf$/;

/**
 * The `local` engine: GGUF models of MODELS_DIR run in the server process by llama.cpp
 * (node-llama-cpp), on the CPU, one thread per request. At most `concurrency` requests generate at
 * once; `queueLimit` more wait; beyond that a request is refused as busy (429). Each request gets a
 * context of its own (sized to its prompt and max_tokens), disposed when it ends; a model file is
 * loaded once and kept. The engine reads text only: image parts are refused.
 */
export class LocalEngine implements ChatEngine {
  private llama: Promise<Llama> | undefined;
  private readonly loaded = new Map<string, Promise<LlamaModel>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly options: { dir: string; concurrency: number; queueLimit: number },
  ) {}

  private async runtime(): Promise<Llama> {
    this.llama ??= import('node-llama-cpp')
      .then(({ getLlama, LlamaLogLevel }) => getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false }))
      .catch((error: unknown) => {
        this.llama = undefined;
        throw new EngineError(`本机的 llama.cpp 不可用（${error instanceof Error ? error.message : String(error)}）`, 'unavailable');
      });
    return this.llama;
  }

  private async model(file: string): Promise<LlamaModel> {
    if (!MODEL_FILE.test(file)) throw new EngineError(`模型文件名不正确：${file}`, 'unavailable');
    const path = join(this.options.dir, file);
    let model = this.loaded.get(file);
    if (!model) {
      if (!existsSync(path)) throw new EngineError(`模型文件 ${file} 不在模型目录中，请联系平台运营`, 'unavailable');
      model = this.runtime().then((llama) => llama.loadModel({ modelPath: path }));
      model.catch(() => this.loaded.delete(file));
      this.loaded.set(file, model);
    }
    return model;
  }

  private async acquire(signal: AbortSignal): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return;
    }
    if (this.waiting.length >= this.options.queueLimit) throw new EngineError('模型繁忙，请稍后再试', 'busy');
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const index = this.waiting.indexOf(turn);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new EngineError('请求已取消', 'invalid'));
      };
      this.waiting.push(turn);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }

  async run(request: EngineRequest, signal: AbortSignal, onText: (text: string) => void): Promise<EngineResult> {
    for (const message of request.messages) {
      if (typeof message.content !== 'string' && message.content.some((part) => part.type !== 'text')) {
        throw new EngineError('该模型由本地引擎提供，只支持文本输入，不支持图片', 'invalid');
      }
    }
    await this.acquire(signal);
    try {
      const model = await this.model(request.model.engineModel);
      const { LlamaChat } = await import('node-llama-cpp');
      const history = request.messages.map((message) => {
        const text = textOf(message.content);
        if (message.role === 'system') return { type: 'system' as const, text };
        if (message.role === 'user') return { type: 'user' as const, text };
        return { type: 'model' as const, response: [text] };
      });
      const promptTokens = history.reduce((sum, item) => sum + model.tokenize(item.type === 'model' ? item.response.join('') : item.text).length + 8, 16);
      const contextSize = Math.min(model.trainContextSize, request.model.contextLength, promptTokens + request.maxTokens + 64);
      if (promptTokens + 1 > contextSize) throw new EngineError(`输入过长：约 ${promptTokens} 个 token，超过模型上下文 ${contextSize}`, 'invalid');
      const context = await model.createContext({ contextSize, threads: 1 });
      const sequence = context.getSequence();
      try {
        const chat = new LlamaChat({ contextSequence: sequence });
        let result;
        try {
          result = await chat.generateResponse(history, {
            maxTokens: request.maxTokens,
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.topP !== undefined ? { topP: request.topP } : {}),
            ...(request.stop && request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
            signal,
            stopOnAbortSignal: true,
            onTextChunk: onText,
          });
        } catch (error) {
          const used = sequence.tokenMeter.getState();
          if (signal.aborted) return { inputTokens: used.usedInputTokens, outputTokens: used.usedOutputTokens, finishReason: 'aborted' };
          throw new EngineError(`生成失败：${error instanceof Error ? error.message : String(error)}`, 'unavailable', { inputTokens: used.usedInputTokens, outputTokens: used.usedOutputTokens });
        }
        const used = sequence.tokenMeter.getState();
        const finishReason = signal.aborted || result.metadata.stopReason === 'abort' ? 'aborted' : result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
        return { inputTokens: used.usedInputTokens, outputTokens: used.usedOutputTokens, finishReason };
      } finally {
        await context.dispose();
      }
    } finally {
      this.release();
    }
  }
}
