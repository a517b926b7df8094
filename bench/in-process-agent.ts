/**
 * The in-process anchor: the benchmark's scripted subagent task run with langchain's `createAgent`
 * in this process, N at once, with no Temporal and no store. Raw activity + this is the least a
 * durable subagent task can cost; deerflow is measured against the sum. See bench/README.md.
 */
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { createAgent, type AgentMiddleware } from 'langchain';
import type { LoadedConfig } from '../src/config';
import { buildSubagentMiddleware, subagentInputMessages } from '../src/middleware/agent';
import { createChatModel, findModelConfig } from '../src/models';
import { resolveSubagent, subagentHasTool } from '../src/registry';
import { createAgentTools, ThreadWorkspace } from '../src/tools';
import { benchTaskPrompt, SUBAGENT_ANSWER } from './deerflow';

/** `plain`: the model and the system prompt only. `middleware`: plus deerflow's subagent middleware chain. */
export const IN_PROCESS_FLAVOURS = ['plain', 'middleware'] as const;
export type InProcessFlavour = (typeof IN_PROCESS_FLAVOURS)[number];

const SUBAGENT_TYPE = 'general-purpose';

/**
 * Runs `tasks` subagent tasks at once on the scripted model `modelName` of `loaded` (the config
 * the deerflow workers use), built and streamed per task as a plain LangChain program would (a
 * fresh model and agent per task, where `runSubagent` keeps one agent per shape and concurrent
 * execution; `streamMode: 'values'`, the task prompt as the only human message, with the date
 * reminder in the `middleware` flavour) with no checkpointer and no callbacks, and with no tools unless
 * `withTools` (then the subagent's workspace tools, as `runSubagent` gives them, for scenarios whose
 * subagents call them). Throws unless every task answered the scripted answer.
 */
export async function runInProcessAgents(loaded: LoadedConfig, modelName: string, tasks: number, flavour: InProcessFlavour, withTools = false): Promise<void> {
  const { config, dir } = loaded;
  const def = resolveSubagent(SUBAGENT_TYPE, config);
  if (def === null) throw new Error(`subagent type '${SUBAGENT_TYPE}' is not defined`);
  const runTask = async (index: number): Promise<void> => {
    const taskPrompt = benchTaskPrompt(index);
    // Built per task: the anchor pays what one self-contained agent run costs.
    const middleware: AgentMiddleware[] = flavour === 'middleware' ? buildSubagentMiddleware({ config, agentName: def.name }) : [];
    const tools = withTools
      ? createAgentTools({ workspace: new ThreadWorkspace(config.store.data_dir, 'in-process'), sandbox: config.sandbox, webFetch: config.web_fetch, names: null }).filter((t) =>
          subagentHasTool(def, t.name),
        )
      : [];
    const agent = createAgent({
      model: createChatModel(findModelConfig(config.models, modelName), { configDir: dir, role: { kind: 'subagent', taskPrompt } }),
      tools,
      systemPrompt: def.systemPrompt,
      name: def.name,
      middleware,
    });
    // The middleware flavour gets runSubagent's input (the task and the date reminder its chain expects).
    const input = flavour === 'middleware' ? subagentInputMessages(taskPrompt) : [new HumanMessage(taskPrompt)];
    const stream = await agent.stream(
      { messages: input },
      { streamMode: 'values', context: { run_id: `in-process:${index}`, thread_id: 'in-process' } },
    );
    let messages: readonly BaseMessage[] = [];
    for await (const chunk of stream) messages = chunk.messages;
    const last = messages.at(-1);
    if (!(last !== undefined && AIMessage.isInstance(last) && last.content === SUBAGENT_ANSWER)) {
      throw new Error(`in-process task ${index} (${flavour}) ended without the scripted answer: ${JSON.stringify(last?.content)}`);
    }
  };
  await Promise.all(Array.from({ length: tasks }, (_, index) => runTask(index)));
}
