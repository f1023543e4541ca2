/**
 * What 模型市场 answers (docs/api-models.md): the catalogue's response schema and the type the console
 * reads it with (`import type` only). Prices are fen per million tokens.
 */
import { z } from 'zod';

export const modelSchema = z.object({
  id: z.string().describe('调用 API 时的 model 参数'),
  name: z.string(),
  provider: z.string(),
  type: z.enum(['text', 'visual']).describe('text 文本模型；visual 视觉模型（可输入图片）'),
  description: z.string(),
  tags: z.array(z.string()),
  contextLength: z.number().int().describe('上下文长度（token）'),
  paramSize: z.string().describe('参数规模，如 7B'),
  license: z.string(),
  inputPriceFen: z.number().int().describe('输入价格：分 / 百万 token'),
  outputPriceFen: z.number().int().describe('输出价格：分 / 百万 token'),
  engine: z.enum(['local', 'openai']).describe('local：平台内置 llama.cpp；openai：上游 OpenAI 兼容服务（vLLM 等）'),
  isTest: z.boolean().describe('平台生成的测试模型（回答没有意义）'),
});
export type ModelView = z.infer<typeof modelSchema>;
