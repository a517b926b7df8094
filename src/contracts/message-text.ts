import type { MessageContent } from '@langchain/core/messages';

/** Plain text of message content: strings as-is, text blocks joined by newlines, the rest skipped. */
export function messageText(content: MessageContent | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .flatMap((block) => {
      if (typeof block === 'string') return [block];
      if (typeof block === 'object' && block !== null && 'text' in block && typeof block.text === 'string') return [block.text];
      return [];
    })
    .filter((text) => text.length > 0)
    .join('\n');
}
