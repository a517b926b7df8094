import type { AIMessage } from '@langchain/core/messages';
import type { TokenUsage } from './usage';

/**
 * Usage of one AI message, or null when the provider reported none. A response whose counts are
 * all zero counts as unreported (SPEC §5): usage is never synthesized.
 */
export function usageOfMessage(message: Pick<AIMessage, 'usage_metadata'>): TokenUsage | null {
  const meta = message.usage_metadata;
  if (!meta) return null;
  const input = Math.max(0, meta.input_tokens ?? 0);
  const output = Math.max(0, meta.output_tokens ?? 0);
  const total = (meta.total_tokens ?? 0) > 0 ? meta.total_tokens : input + output;
  if (total <= 0) return null;
  return { input_tokens: input, output_tokens: output, total_tokens: total };
}
