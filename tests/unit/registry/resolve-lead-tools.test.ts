import { AppConfigSchema, type AppConfigInput } from '../../../src/config';
import { resolveLeadTools } from '../../../src/registry';

const config = (input: AppConfigInput = {}) => AppConfigSchema.parse(input);

describe('resolveLeadTools', () => {
  it('offers every lead tool but bash when host bash is off', () => {
    expect(resolveLeadTools(config(), null)).toEqual(['ls', 'read_file', 'write_file', 'str_replace', 'web_fetch']);
  });

  it('offers bash where the deployment allows host bash', () => {
    expect(resolveLeadTools(config({ sandbox: { allow_host_bash: true } }), null)).toContain('bash');
  });

  it("narrows to the agent's allowlist, and the allowlist cannot add bash to a deployment without it", () => {
    expect(resolveLeadTools(config(), ['read_file', 'bash'])).toEqual(['read_file']);
    expect(resolveLeadTools(config(), [])).toEqual([]);
  });

  it('rejects an unknown tool name in agents.<name>.tools, naming the field', () => {
    const parsed = AppConfigSchema.safeParse({ agents: { researcher: { tools: ['read_file', 'teleport'] } } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['agents', 'researcher', 'tools', 1]);
  });
});
