import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { stringify } from 'yaml';
import type { LoadedConfig } from '../config';
import { ManagedLeadAgentInputSchema, ManagedSubagentInputSchema, type ManagedSubagent } from '../contracts';
import { availableSubagentNames, BUILTIN_SUBAGENTS, managedStatus, resolveSubagent } from '../registry';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { parseDefinitionFile, validateCliInput } from './validate-cli-input';
import { withStores } from './with-stores';

/** One row of `deerflow agents list`. */
export interface AgentRow {
  readonly name: string;
  readonly source: 'builtin' | 'config' | 'managed';
  /** `active`, `disabled`, `shadowed` (stored but a built-in/config definition owns the name), `unavailable`. */
  readonly status: string;
  readonly model: string;
  readonly maxTurns: number;
  readonly timeoutSeconds: number;
  readonly description: string;
}

/** Every subagent the deployment knows, with why an entry does not take part at run time. */
export function listAgentRows(loaded: LoadedConfig, managed: readonly ManagedSubagent[]): AgentRow[] {
  const { config } = loaded;
  const available = new Set(availableSubagentNames(config, managed));
  const rows: AgentRow[] = [];
  const configured = [...BUILTIN_SUBAGENTS.map((d) => d.name), ...Object.keys(config.subagents.custom_agents)];
  for (const name of new Set(configured)) {
    const def = resolveSubagent(name, config, managed);
    if (def === null) continue;
    rows.push({
      name,
      source: def.source,
      status: available.has(name) ? 'active' : 'unavailable (sandbox.allow_host_bash is off)',
      model: def.model,
      maxTurns: def.maxTurns,
      timeoutSeconds: def.timeoutSeconds,
      description: firstLine(def.description),
    });
  }
  for (const def of managed) {
    const resolved = resolveSubagent(def.name, config, managed);
    const status = managedStatus(def, config);
    rows.push({
      name: def.name,
      source: 'managed',
      status: status === 'shadowed' ? `shadowed by the ${resolved?.source ?? 'configured'} definition` : status,
      model: def.model,
      maxTurns: def.max_turns,
      timeoutSeconds: def.timeout_seconds,
      description: firstLine(def.description),
    });
  }
  return rows;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

function formatRows(rows: readonly AgentRow[]): string {
  const header = ['NAME', 'SOURCE', 'STATUS', 'MODEL', 'TURNS', 'TIMEOUT', 'DESCRIPTION'];
  const cells = rows.map((r) => [r.name, r.source, r.status, r.model, String(r.maxTurns), `${r.timeoutSeconds}s`, r.description.slice(0, 60)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  return [header, ...cells].map((row) => row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

const list = (value: string): string[] => value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
const integer = (value: string): number | string => (/^-?\d+$/.test(value.trim()) ? Number(value) : value);

interface AddOptions {
  config?: string;
  file?: string;
  description?: string;
  systemPrompt?: string;
  systemPromptFile?: string;
  tools?: string[];
  disallowedTools?: string[];
  skills?: string[];
  model?: string;
  maxTurns?: number | string;
  timeoutSeconds?: number | string;
  disabled?: boolean;
}

/** The definition `agents add` stores: a YAML/JSON file, overridden by explicit options. */
function addInput(name: string, opts: AddOptions): Record<string, unknown> {
  const fromFile = opts.file ? parseDefinitionFile(readFileSync(opts.file, 'utf8'), opts.file) : {};
  const input: Record<string, unknown> = { ...fromFile, name };
  const set = (key: string, value: unknown) => {
    if (value !== undefined) input[key] = value;
  };
  set('description', opts.description);
  set('system_prompt', opts.systemPromptFile ? readFileSync(opts.systemPromptFile, 'utf8') : opts.systemPrompt);
  set('tools', opts.tools);
  set('disallowed_tools', opts.disallowedTools);
  set('skills', opts.skills);
  set('model', opts.model);
  set('max_turns', opts.maxTurns);
  set('timeout_seconds', opts.timeoutSeconds);
  if (opts.disabled) input.enabled = false;
  return input;
}

/** `deerflow agents ...`: the administrator surface for managed definitions. */
export function agentsCommand(): Command {
  const agents = new Command('agents').description('manage subagent and lead agent definitions stored at run time');
  const out = (text: string) => process.stdout.write(`${text}\n`);

  agents
    .command('list')
    .description('every subagent: built-in, config and managed, with its status')
    .option('-c, --config <file>', 'config file')
    .option('--json', 'print JSON', false)
    .action(async (opts: { config?: string; json: boolean }) => {
      const loaded = loadCliConfig(opts.config);
      const rows = await withStores(loaded, async (stores) => listAgentRows(loaded, await stores.agents.listSubagents()));
      out(opts.json ? JSON.stringify(rows, null, 2) : formatRows(rows));
    });

  agents
    .command('show')
    .argument('<name>')
    .description('a subagent definition as runs resolve it (or the stored managed definition)')
    .option('-c, --config <file>', 'config file')
    .action(async (name: string, opts: { config?: string }) => {
      const loaded = loadCliConfig(opts.config);
      await withStores(loaded, async (stores) => {
        const managed = await stores.agents.listSubagents();
        const resolved = resolveSubagent(name, loaded.config, managed);
        const stored = managed.find((m) => m.name === name) ?? null;
        if (resolved === null && stored === null) throw new CliExit(`No subagent named '${name}'`, EXIT_USAGE);
        out(stringify({ resolved, stored: stored && { ...stored, status: managedStatus(stored, loaded.config) } }).trimEnd());
      });
    });

  agents
    .command('add')
    .argument('<name>')
    .description('store a managed subagent definition (validated; nothing is stored on bad input)')
    .option('-c, --config <file>', 'config file')
    .option('-f, --file <file>', 'YAML or JSON with the definition fields')
    .option('--description <text>')
    .option('--system-prompt <text>')
    .option('--system-prompt-file <file>')
    .option('--tools <list>', 'comma-separated tool allowlist', list)
    .option('--disallowed-tools <list>', 'comma-separated tool denylist', list)
    .option('--skills <list>', 'comma-separated skill allowlist', list)
    .option('--model <name>', 'a configured model, or inherit')
    .option('--max-turns <n>', 'model turns', integer)
    .option('--timeout-seconds <n>', 'execution cap', integer)
    .option('--disabled', 'store it disabled')
    .action(async (name: string, opts: AddOptions) => {
      const loaded = loadCliConfig(opts.config);
      const input = validateCliInput(ManagedSubagentInputSchema, addInput(name, opts));
      const created = await withStores(loaded, (stores) => stores.agents.createSubagent(input));
      out(`stored managed subagent '${created.name}' (${managedStatus(created, loaded.config)})`);
    });

  for (const [verb, enabled] of [['enable', true], ['disable', false]] as const) {
    agents
      .command(verb)
      .argument('<name>')
      .description(`${verb} a managed subagent definition`)
      .option('-c, --config <file>', 'config file')
      .action(async (name: string, opts: { config?: string }) => {
        const loaded = loadCliConfig(opts.config);
        const def = await withStores(loaded, (stores) => stores.agents.setSubagentEnabled(name, enabled));
        out(`managed subagent '${def.name}' is ${managedStatus(def, loaded.config)}`);
      });
  }

  agents
    .command('remove')
    .argument('<name>')
    .description('delete a managed subagent definition')
    .option('-c, --config <file>', 'config file')
    .action(async (name: string, opts: { config?: string }) => {
      const removed = await withStores(loadCliConfig(opts.config), (stores) => stores.agents.removeSubagent(name));
      if (!removed) throw new CliExit(`No managed subagent named '${name}'`, EXIT_USAGE);
      out(`removed managed subagent '${name}'`);
    });

  const lead = agents.command('lead').description('lead agent definitions stored at run time');
  lead
    .command('set')
    .argument('<name>')
    .description('create or replace a stored lead agent')
    .option('-c, --config <file>', 'config file')
    .option('--description <text>')
    .option('--system-prompt <text>')
    .option('--model <name>')
    .option('--allowed-subagents <list>', 'comma-separated allowlist; "none" = no delegation; omit = all')
    .option('--max-turns <n>', 'lead model turns', integer)
    .option('--tools <list>', "comma-separated allowlist of the lead's own tools; omit = all")
    .action(async (name: string, opts: { config?: string; description?: string; systemPrompt?: string; model?: string; allowedSubagents?: string; maxTurns?: number | string; tools?: string }) => {
      const allowed = opts.allowedSubagents === undefined ? null : opts.allowedSubagents.trim() === 'none' ? [] : list(opts.allowedSubagents);
      const input = validateCliInput(ManagedLeadAgentInputSchema, {
        name,
        description: opts.description,
        system_prompt: opts.systemPrompt,
        model: opts.model,
        allowed_subagents: allowed,
        max_turns: opts.maxTurns,
        tools: opts.tools === undefined ? null : list(opts.tools),
      });
      const saved = await withStores(loadCliConfig(opts.config), (stores) => stores.agents.putLeadAgent(input));
      out(`stored lead agent '${saved.name}' (allowed_subagents: ${saved.allowed_subagents === null ? 'all' : JSON.stringify(saved.allowed_subagents)})`);
    });
  lead
    .command('list')
    .option('-c, --config <file>', 'config file')
    .action(async (opts: { config?: string }) => {
      const loaded = loadCliConfig(opts.config);
      const stored = await withStores(loaded, (stores) => stores.agents.listLeadAgents());
      out(stringify({ config: loaded.config.agents, stored }).trimEnd());
    });
  lead
    .command('remove')
    .argument('<name>')
    .option('-c, --config <file>', 'config file')
    .action(async (name: string, opts: { config?: string }) => {
      const removed = await withStores(loadCliConfig(opts.config), (stores) => stores.agents.removeLeadAgent(name));
      if (!removed) throw new CliExit(`No stored lead agent named '${name}'`, EXIT_USAGE);
      out(`removed lead agent '${name}'`);
    });
  return agents;
}
