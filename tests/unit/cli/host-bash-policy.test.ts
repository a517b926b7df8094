import { decideHostBashForServe } from '../../../src/cli/host-bash-policy';
import type { GatewayToken } from '../../../src/config';

const TOKENS: GatewayToken[] = [{ user: 'alice', token_env: 'ALICE_TOKEN' }];

function decide(allow_host_bash: boolean, host_bash_multi_user: boolean, tokens: GatewayToken[]) {
  return decideHostBashForServe({ sandbox: { allow_host_bash, host_bash_multi_user }, gateway: { tokens } });
}

describe('decideHostBashForServe', () => {
  it('starts silently while host bash is off, with or without tokens', () => {
    expect(decide(false, false, [])).toEqual({ kind: 'ok' });
    expect(decide(false, false, TOKENS)).toEqual({ kind: 'ok' });
    expect(decide(false, true, TOKENS)).toEqual({ kind: 'ok' });
  });

  it('refuses host bash with gateway tokens unless host_bash_multi_user, naming both settings and why', () => {
    const decision = decide(true, false, TOKENS);
    expect(decision.kind).toBe('refuse');
    if (decision.kind !== 'refuse') return;
    expect(decision.message).toContain('sandbox.allow_host_bash');
    expect(decision.message).toContain('gateway.tokens');
    expect(decision.message).toContain('sandbox.host_bash_multi_user: true');
    expect(decision.message).toMatch(/worker's OS user/);
    expect(decision.message).toMatch(/other users' workspaces and the store/);
  });

  it('warns when host bash is on and the start is allowed', () => {
    const single = decide(true, false, []);
    expect(single.kind).toBe('warn');
    if (single.kind === 'warn') expect(single.message).toContain('sandbox.allow_host_bash');
    const multi = decide(true, true, TOKENS);
    expect(multi.kind).toBe('warn');
    if (multi.kind === 'warn') expect(multi.message).toContain('sandbox.host_bash_multi_user');
  });
});
