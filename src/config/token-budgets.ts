import { TokenBudgetConfigSchema, type AppConfig, type TokenBudgetConfig } from './schema';

/** Subagent budget when none is configured (SPEC §1.3, §6.2): 1,000,000 with summarization on, else 2,000,000. */
export function defaultSubagentTokenBudget(summarizationEnabled: boolean): TokenBudgetConfig {
  return TokenBudgetConfigSchema.parse({
    enabled: true,
    max_tokens: summarizationEnabled ? 1_000_000 : 2_000_000,
    warn_threshold: 0.7,
    hard_stop_threshold: 1.0,
  });
}

/**
 * The budget a subagent runs with (`get_token_budget_for`): its `subagents.agents.<name>.token_budget`,
 * else an explicit `subagents.token_budget`, else {@link defaultSubagentTokenBudget} for
 * `summarization.enabled`.
 */
export function resolveSubagentTokenBudget(
  config: Pick<AppConfig, 'subagents' | 'summarization'>,
  agentName: string,
): TokenBudgetConfig {
  const override = Object.hasOwn(config.subagents.agents, agentName) ? config.subagents.agents[agentName] : undefined;
  return override?.token_budget ?? config.subagents.token_budget ?? defaultSubagentTokenBudget(config.summarization.enabled);
}

/**
 * The budget a lead run's own model calls count against: the lead agent's
 * `agents.<name>.token_budget`, else an explicit `subagents.token_budget`, else the subagent default.
 */
export function resolveLeadTokenBudget(config: Pick<AppConfig, 'subagents' | 'summarization'>, agentBudget: TokenBudgetConfig | null): TokenBudgetConfig {
  return agentBudget ?? config.subagents.token_budget ?? defaultSubagentTokenBudget(config.summarization.enabled);
}
