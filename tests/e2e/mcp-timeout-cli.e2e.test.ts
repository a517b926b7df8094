import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runCli } from './run-cli';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-mcp-timeout-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('an MCP server timeout longer than a lead tool call is refused at config load: exit 2 naming the key', async () => {
  writeFileSync(
    join(dir, 'config.yaml'),
    stringify({
      models: [{ name: 'demo', provider: 'scripted', script: './scenario.yaml' }],
      lead_tools: { timeout_seconds: 120 },
      mcp_servers: { slow: { transport: 'stdio', command: 'never-started', timeout_seconds: 600 } },
    }),
  );
  const result = await runCli(['tools', 'list', '--config', join(dir, 'config.yaml')], { cwd: dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('mcp_servers.slow.timeout_seconds: 600 is longer than lead_tools.timeout_seconds (120)');
  expect(result.stdout).toBe('');
}, 60_000);
