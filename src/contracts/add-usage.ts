import type { TokenUsage } from './usage';

/**
 * Adds two usage values, keeping "no usage reported" distinct from zero:
 * the sum is `null` only when both sides are `null`.
 */
export function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}
