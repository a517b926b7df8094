/** A general-purpose subagent token budget that one {@link overBudgetTurn} spends: its task ends `token_capped`. */
export const TINY_TOKEN_BUDGET = { subagents: { agents: { 'general-purpose': { token_budget: { enabled: true, max_tokens: 1000, warn_threshold: 0.5 } } } } };

/** A scripted subagent turn of 1,100 tokens whose tool call the budget strips. */
export const overBudgetTurn = (content: string) => ({ content, tool_calls: [{ name: 'ls', args: { path: '.' } }], usage: { input_tokens: 700, output_tokens: 400 } });
