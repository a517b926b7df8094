import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { ToolMessage } from '@langchain/core/messages';

import { createWorkspaceTools } from '../../../src/tools';
import { isProcessAlive, makeFixture, waitFor } from './helpers';
import type { Fixture } from './helpers';

let fx: Fixture;
afterEach(() => fx.cleanup());

async function readPid(file: string): Promise<number> {
  const ok = await waitFor(async () => (await fs.readFile(file, 'utf8').catch(() => '')).trim() !== '', 5000);
  if (!ok) throw new Error(`no pid in ${file}`);
  return Number((await fs.readFile(file, 'utf8')).trim());
}

describe('bash tool', () => {
  beforeEach(async () => {
    fx = await makeFixture();
  });

  it('returns stdout and stderr, runs in the virtual workspace and reports only non-zero exit codes', async () => {
    expect(await fx.call('bash', { command: 'echo out; sleep 0.1; echo err >&2' })).toBe('out\nerr\n');
    expect(await fx.call('bash', { command: 'pwd; echo "$HOME"' })).toBe('/mnt/user-data/workspace\n/mnt/user-data/workspace\n');
    expect(await fx.call('bash', { command: 'echo failing; exit 2', description: 'check exit code' })).toBe(
      'failing\n[exit code 2]',
    );
    expect(await fx.call('bash', { command: 'exit 3' })).toBe('[exit code 3]');
    expect(await fx.call('bash', { command: 'true' })).toBe('(no output)');
  });

  it('maps /mnt/user-data in commands to the host root, so files round-trip with read_file', async () => {
    const out = await fx.call('bash', {
      command: 'mkdir -p /mnt/user-data/outputs && echo hello > /mnt/user-data/outputs/x.txt && ls /mnt/user-data/outputs/x.txt',
    });
    expect(out).toBe('/mnt/user-data/outputs/x.txt\n');
    expect(await fs.readFile(path.join(fx.workspace.hostRoot, 'outputs', 'x.txt'), 'utf8')).toBe('hello\n');
    expect(await fx.call('read_file', { path: '/mnt/user-data/outputs/x.txt' })).toBe('hello\n');
    expect(await fx.call('read_file', { path: '../outputs/x.txt' })).toBe('hello\n');
  });

  it('passes only PATH, HOME and LANG of the worker environment (no API keys)', async () => {
    process.env['OPENAI_API_KEY'] = 'sk-test-must-not-leak';
    try {
      const out = await fx.call('bash', { command: 'env | cut -d= -f1 | sort; echo "key=${OPENAI_API_KEY:-unset}"' });
      // PWD, SHLVL and _ are set by bash itself, not inherited.
      expect(out.trim().split('\n')).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'SHLVL', '_', 'key=unset']);
      expect(out).not.toContain('sk-test-must-not-leak');
    } finally {
      delete process.env['OPENAI_API_KEY'];
    }
  });

  it('passes a minimal environment', async () => {
    process.env['DEERFLOW_TOOLS_TEST_SECRET'] = 'leak';
    try {
      const out = await fx.call('bash', { command: 'env | cut -d= -f1 | sort' });
      expect(out.trim().split('\n')).toEqual(expect.arrayContaining(['HOME', 'LANG', 'PATH']));
      expect(out).not.toContain('DEERFLOW_TOOLS_TEST_SECRET');
    } finally {
      delete process.env['DEERFLOW_TOOLS_TEST_SECRET'];
    }
  });

  it('keeps head and tail of long output within max_output_chars', async () => {
    const out = await fx.call('bash', { command: 'echo START; seq 1 20000; echo END; exit 1' });
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out.startsWith('START\n1\n2\n')).toBe(true);
    expect(out).toMatch(/\.\.\. \[\d+ chars truncated\] \.\.\./);
    expect(out.endsWith('19999\n20000\nEND\n[exit code 1]')).toBe(true);
  });

  it('returns as soon as bash exits even if a background job keeps the pipes open', async () => {
    const started = Date.now();
    const out = await fx.call('bash', { command: 'sleep 5 & echo $! > bg.pid; echo done' });
    expect(out).toBe('done\n');
    expect(Date.now() - started).toBeLessThan(3000);
    const bgPid = await readPid(path.join(fx.workspace.hostWorkspace, 'bg.pid'));
    expect(await waitFor(() => !isProcessAlive(bgPid), 2000)).toBe(true);
  });

  it('kills background jobs of the command once it returns', async () => {
    const out = await fx.call('bash', { command: 'sleep 30 & echo $!' });
    const pid = Number(out.trim());
    expect(Number.isInteger(pid) && pid > 0).toBe(true);
    // ESRCH once the job is killed and reaped; a zombie awaiting reaping counts as gone too.
    const gone = await waitFor(() => {
      try {
        process.kill(pid, 0);
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
      return !isProcessAlive(pid);
    }, 2000);
    expect(gone).toBe(true);
  });
});

describe('bash tool limits', () => {
  it('kills the command and its children on timeout', async () => {
    fx = await makeFixture({ bash_timeout_seconds: 1 });
    const started = Date.now();
    const out = await fx.call('bash', { command: 'echo begin; sleep 30 & echo $! > child.pid; sleep 30' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(4000);
    expect(out).toContain('begin');
    expect(out).toContain('timed out after 1 s');
    const childPid = await readPid(path.join(fx.workspace.hostWorkspace, 'child.pid'));
    expect(await waitFor(() => !isProcessAlive(childPid), 2000)).toBe(true);
  });

  it('stops the command when the tool call is aborted', async () => {
    fx = await makeFixture({ bash_timeout_seconds: 60 });
    const bash = fx.tools.get('bash');
    if (bash === undefined) throw new Error('bash missing');
    const controller = new AbortController();
    const pidFile = path.join(fx.workspace.hostWorkspace, 'sleep.pid');
    const started = Date.now();
    const pending = bash.invoke({ command: 'sleep 30 & echo $! > sleep.pid; wait' }, { signal: controller.signal });
    const childPid = await readPid(pidFile);
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waitFor(() => !isProcessAlive(childPid), 2000)).toBe(true);
  });

  it('refuses to start when the signal is already aborted', async () => {
    fx = await makeFixture();
    const bash = fx.tools.get('bash');
    const controller = new AbortController();
    controller.abort();
    await expect(bash?.invoke({ command: 'touch ran.txt' }, { signal: controller.signal })).rejects.toThrow();
    await expect(fs.access(path.join(fx.workspace.hostWorkspace, 'ran.txt'))).rejects.toThrow();
  });

  it('is absent when allow_host_bash is false', async () => {
    fx = await makeFixture({ allow_host_bash: false });
    expect([...fx.tools.keys()]).toEqual(['ls', 'read_file', 'write_file', 'str_replace']);
    const withBash = createWorkspaceTools({
      workspace: fx.workspace,
      sandbox: { allow_host_bash: true, bash_timeout_seconds: 5, max_output_chars: 1000, max_file_bytes: 10_000_000 },
    });
    expect(withBash.map((t) => t.name)).toEqual(['bash', 'ls', 'read_file', 'write_file', 'str_replace']);
  });

  it('returns a ToolMessage when invoked with a tool call', async () => {
    fx = await makeFixture();
    const bash = fx.tools.get('bash');
    const msg: unknown = await bash?.invoke({ id: 'call_1', name: 'bash', args: { command: 'echo hi' }, type: 'tool_call' });
    expect(msg).toBeInstanceOf(ToolMessage);
    const tm = msg as ToolMessage;
    expect(tm.tool_call_id).toBe('call_1');
    expect(tm.name).toBe('bash');
    expect(tm.content).toBe('hi\n');
  });
});
