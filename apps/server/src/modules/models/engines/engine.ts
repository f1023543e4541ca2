/**
 * What serves a model (docs/api-models.md "Engines"): the platform gives an engine the conversation
 * and gets the answer's text as it is generated, then the token counts — always the engine's own
 * count, never the client's.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  /** Text, or (visual models) text and image parts as OpenAI sends them. */
  content: string | ChatContentPart[];
}

export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface EngineModel {
  id: string;
  engine: 'local' | 'openai';
  engineModel: string;
  contextLength: number;
  upstreamUrl: string | null;
  upstreamKey: string | null;
}

export interface EngineRequest {
  model: EngineModel;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number | undefined;
  topP?: number | undefined;
  stop?: string[] | undefined;
}

export interface EngineResult {
  inputTokens: number;
  outputTokens: number;
  /** stop: the model ended; length: max_tokens reached; aborted: the caller went away. */
  finishReason: 'stop' | 'length' | 'aborted';
}

/** Why an engine could not take or finish a request, in words for the user. */
export class EngineError extends Error {
  constructor(
    message: string,
    /** busy: try again later (429); unavailable: the model cannot be served now (503); invalid: the request (400). */
    readonly kind: 'busy' | 'unavailable' | 'invalid',
    /** What the engine generated and counted before it failed (billed like an aborted call). */
    readonly partial?: Pick<EngineResult, 'inputTokens' | 'outputTokens'>,
  ) {
    super(message);
  }
}

export interface ChatEngine {
  /**
   * Generates the answer, calling `onText` with each piece as it comes; resolves with the counts when
   * it is done, also when `signal` aborts it (what was generated until then).
   */
  run(request: EngineRequest, signal: AbortSignal, onText: (text: string) => void): Promise<EngineResult>;
}

/** The text of a message (image parts left out: for engines that only read text). */
export function textOf(content: ChatMessage['content']): string {
  return typeof content === 'string' ? content : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
