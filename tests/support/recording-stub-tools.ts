import { tool } from '@langchain/core/tools';
import { z } from 'zod';

/** Stub tools that answer a fixed output and record, in order, the names of those that ran. */
export function recordingStubTools() {
  const ran: string[] = [];
  const stub = (name: string, output: string) =>
    tool(
      () => {
        ran.push(name);
        return output;
      },
      { name, description: `Stub ${name}.`, schema: z.object({}).passthrough() },
    );
  return { ran, stub };
}
