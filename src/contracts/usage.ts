import { z } from 'zod';

const tokenCount = z.number().int().nonnegative();

/** Token usage of one or more model responses. Absent usage is `null`/omitted, never zeros. */
export const TokenUsageSchema = z.object({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  total_tokens: tokenCount,
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export { addUsage } from './add-usage';
