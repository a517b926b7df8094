import { z } from 'zod';
import { ASK_CLARIFICATION_TOOL_NAME } from '../contracts';
import type { FunctionToolSpec } from './function-tool-spec';
import { toolParameters } from './tool-parameters';

/**
 * The lead's `ask_clarification` tool as the model sees it. The workflow executes it: the run
 * shows the question to the user and waits durably for the answer, which arrives as the user's
 * next message.
 */
export function askClarificationToolSpec(): FunctionToolSpec {
  const parameters = () =>
    z.object({
      question: z.string().describe('One focused question for the user: what you need to know to do the work right.'),
    });
  return {
    type: 'function',
    function: {
      name: ASK_CLARIFICATION_TOOL_NAME,
      description:
        'Ask the user one focused question when the request is ambiguous in a way that changes the answer, or a choice is theirs to make. ' +
        'The run waits for their answer, which comes back as their next message. Do not ask what you can find out with your tools.',
      parameters: toolParameters(ASK_CLARIFICATION_TOOL_NAME, parameters),
    },
  };
}
