/** How 模型 shows prices, lengths and the code samples. */
import { formatYuan } from '@slg/shared';
import { MODEL_TEXTS } from './texts';

const T = MODEL_TEXTS.card;

/** A price in fen per million tokens: `¥2.00 / 百万 token`, or 免费. */
export function formatPricePerMillion(fen: number): string {
  return fen === 0 ? T.free : `${formatYuan(fen)} ${T.perMillion}`;
}

/** A context length in tokens: 4096 → 4K, 128000 → 128K, 3000 → 3,000. */
export function formatContextLength(tokens: number): string {
  if (tokens >= 1000 && tokens % 1000 === 0) return `${(tokens / 1000).toLocaleString('zh-CN')}K`;
  if (tokens >= 1024 && tokens % 1024 === 0) return `${(tokens / 1024).toLocaleString('zh-CN')}K`;
  return tokens.toLocaleString('zh-CN');
}

export interface SampleParams {
  baseUrl: string;
  model: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  prompt: string;
}

/** A string in single quotes for a POSIX shell. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The same call with curl, streamed with the usage chunk. */
export function curlSample(params: SampleParams): string {
  const body = JSON.stringify({
    model: params.model,
    messages: [{ role: 'user', content: params.prompt }],
    max_tokens: params.maxTokens,
    temperature: params.temperature,
    stream: true,
    stream_options: { include_usage: true },
  });
  return [
    `curl ${params.baseUrl}/chat/completions \\`,
    `  -H "Authorization: Bearer ${params.apiKey}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuoted(body)}`,
  ].join('\n');
}

/** The same call with the openai package for Python. */
export function pythonSample(params: SampleParams): string {
  const py = (text: string) => JSON.stringify(text);
  return [
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url=${py(params.baseUrl)}, api_key=${py(params.apiKey)})`,
    '',
    'stream = client.chat.completions.create(',
    `    model=${py(params.model)},`,
    `    messages=[{"role": "user", "content": ${py(params.prompt)}}],`,
    `    max_tokens=${params.maxTokens},`,
    `    temperature=${params.temperature},`,
    '    stream=True,',
    '    stream_options={"include_usage": True},',
    ')',
    'for chunk in stream:',
    '    if chunk.choices:',
    '        print(chunk.choices[0].delta.content or "", end="", flush=True)',
    '    if chunk.usage:',
    '        print("\\n", chunk.usage)',
  ].join('\n');
}
