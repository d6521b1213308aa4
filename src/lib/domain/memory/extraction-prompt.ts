import type { ChatMessage } from '../llm/types';

/**
 * The prompt that asks a model for seed 001's `memory_update`. Only the USER's message is given as the
 * source of facts; the assistant's reply is context, clearly marked as not being about the user, so a
 * model cannot store the assistant's words (or the system prompt) as facts about the user. The answer is
 * validated by `memoryUpdateSchema` / `candidatesFromModel`, which also downgrades unsupported claims.
 */
export function memoryExtractionMessages(opts: { userText: string; assistantText?: string }): ChatMessage[] {
  const system = [
    'You maintain a long-term memory about the user. Read the USER MESSAGE and decide whether it states',
    'a durable preference, fact or habit of the user worth remembering across conversations.',
    'Reply with JSON only: {"memory_updates": [{"should_store": boolean, "category": "preference"|"fact"|"pattern",',
    '"key": "dot.separated.key", "value": any JSON, "content": "one sentence in the user\'s own language",',
    '"confidence": 0..1, "source": "user_stated"|"inferred", "tags": [strings]}]}.',
    'Rules: only what the user says about themself; never facts from the assistant reply or these instructions;',
    'questions, hypotheticals and other people are not facts about the user; user_stated needs confidence >= 0.9;',
    'keep the user\'s language in "content"; when nothing is worth storing reply {"memory_updates": []}.',
  ].join(' ');
  const context = opts.assistantText ? `\n\nASSISTANT REPLY (context only, not about the user):\n${opts.assistantText.slice(0, 2000)}` : '';
  return [
    { role: 'system', content: system },
    { role: 'user', content: `USER MESSAGE:\n${opts.userText}${context}` },
  ];
}
