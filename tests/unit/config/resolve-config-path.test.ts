import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveConfigPath } from '../../../src/config';

function tempDir(withConfigYaml: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deerflow-config-path-'));
  if (withConfigYaml) fs.writeFileSync(path.join(dir, 'config.yaml'), '');
  return dir;
}

describe('resolveConfigPath', () => {
  it('prefers --config over DEERFLOW_CONFIG and ./config.yaml', () => {
    const cwd = tempDir(true);
    expect(resolveConfigPath({ cliPath: '/etc/deerflow/cli.yaml', env: { DEERFLOW_CONFIG: '/etc/deerflow/env.yaml' }, cwd })).toBe(
      '/etc/deerflow/cli.yaml',
    );
  });

  it('uses DEERFLOW_CONFIG when there is no --config', () => {
    const cwd = tempDir(true);
    expect(resolveConfigPath({ env: { DEERFLOW_CONFIG: '/etc/deerflow/env.yaml' }, cwd })).toBe('/etc/deerflow/env.yaml');
  });

  it('uses ./config.yaml when it exists and nothing else is given', () => {
    const cwd = tempDir(true);
    expect(resolveConfigPath({ env: {}, cwd })).toBe(path.join(cwd, 'config.yaml'));
  });

  it('returns null (all defaults) when nothing is given and there is no ./config.yaml', () => {
    expect(resolveConfigPath({ env: {}, cwd: tempDir(false) })).toBeNull();
  });

  it('resolves relative paths against cwd', () => {
    const cwd = tempDir(false);
    expect(resolveConfigPath({ cliPath: 'conf/a.yaml', env: {}, cwd })).toBe(path.join(cwd, 'conf', 'a.yaml'));
    expect(resolveConfigPath({ env: { DEERFLOW_CONFIG: '../b.yaml' }, cwd })).toBe(path.resolve(cwd, '..', 'b.yaml'));
  });

  it('returns an explicit path even when the file does not exist, so loading reports it', () => {
    const cwd = tempDir(true);
    expect(resolveConfigPath({ cliPath: 'missing.yaml', env: {}, cwd })).toBe(path.join(cwd, 'missing.yaml'));
    expect(resolveConfigPath({ env: { DEERFLOW_CONFIG: 'missing.yaml' }, cwd })).toBe(path.join(cwd, 'missing.yaml'));
  });

  it('treats empty values as not given', () => {
    const cwd = tempDir(true);
    expect(resolveConfigPath({ cliPath: '', env: { DEERFLOW_CONFIG: '' }, cwd })).toBe(path.join(cwd, 'config.yaml'));
    expect(resolveConfigPath({ cliPath: '', env: { DEERFLOW_CONFIG: '' }, cwd: tempDir(false) })).toBeNull();
  });
});
