/** The conversation of 模型对话 as the API reads it. */
import type { ChatMessage } from '../../../api/models';
import type { Turn } from './ChatTurn';

export const DEFAULT_MAX_TOKENS = 512;
export const DEFAULT_TEMPERATURE = 0.7;
export const MAX_TEMPERATURE = 2;

/**
 * What the next call sends: the system prompt, every question, and the answers that arrived (a stopped
 * one as far as it got; a failed or empty one is left out).
 */
export function messagesOf(systemPrompt: string, turns: readonly Turn[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (systemPrompt.trim()) messages.push({ role: 'system', content: systemPrompt.trim() });
  for (const turn of turns) {
    if (turn.role === 'user') messages.push({ role: 'user', content: turn.content });
    else if ((turn.status === 'done' || turn.status === 'stopped') && turn.content) messages.push({ role: 'assistant', content: turn.content });
  }
  return messages;
}
