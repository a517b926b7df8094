import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PROJECT_TEMPORAL_CLI_RELATIVE_PATH,
  findProjectRoot,
  resolveTemporalCli,
} from '../../../src/devserver';

describe('resolveTemporalCli', () => {
  let sandbox: string;
  let projectRoot: string;
  let pathDir: string;
  let envCli: string;
  let projectCli: string;

  beforeEach(() => {
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'resolve-temporal-cli-'));
    projectRoot = path.join(sandbox, 'project');
    pathDir = path.join(sandbox, 'bin');
    envCli = path.join(sandbox, 'custom', 'my-temporal');
    projectCli = path.join(projectRoot, PROJECT_TEMPORAL_CLI_RELATIVE_PATH);
    mkdirSync(projectRoot, { recursive: true });
    mkdirSync(pathDir, { recursive: true });
  });

  afterEach(() => rmSync(sandbox, { recursive: true, force: true }));

  function fakeExecutable(filePath: string, mode = 0o755): void {
    mkdirSync(path.dirname(filePath), { recursive: true });
    writeFileSync(filePath, '#!/bin/sh\necho fake temporal\n');
    chmodSync(filePath, mode);
  }

  it('prefers TEMPORAL_CLI_PATH over PATH and the project install', () => {
    fakeExecutable(envCli);
    fakeExecutable(path.join(pathDir, 'temporal'));
    fakeExecutable(projectCli);
    const env = { TEMPORAL_CLI_PATH: envCli, PATH: pathDir };
    expect(resolveTemporalCli({ env, projectRoot })).toEqual({ path: envCli, source: 'env' });
  });

  it('uses temporal on PATH before the project install, scanning PATH entries in order', () => {
    const emptyDir = path.join(sandbox, 'empty');
    mkdirSync(emptyDir);
    fakeExecutable(path.join(pathDir, 'temporal'));
    fakeExecutable(projectCli);
    const env = { PATH: [emptyDir, '', pathDir].join(path.delimiter) };
    expect(resolveTemporalCli({ env, projectRoot })).toEqual({ path: path.join(pathDir, 'temporal'), source: 'path' });
  });

  it('skips a PATH entry whose temporal is not executable', () => {
    fakeExecutable(path.join(pathDir, 'temporal'), 0o644);
    fakeExecutable(projectCli);
    expect(resolveTemporalCli({ env: { PATH: pathDir }, projectRoot })).toEqual({ path: projectCli, source: 'project' });
  });

  it('treats an empty TEMPORAL_CLI_PATH as unset', () => {
    fakeExecutable(projectCli);
    const env = { TEMPORAL_CLI_PATH: '', PATH: pathDir };
    expect(resolveTemporalCli({ env, projectRoot })).toEqual({ path: projectCli, source: 'project' });
  });

  it('throws an error naming TEMPORAL_CLI_PATH when it points at a missing file', () => {
    fakeExecutable(projectCli);
    const missing = path.join(sandbox, 'nope', 'temporal');
    const env = { TEMPORAL_CLI_PATH: missing, PATH: pathDir };
    expect(() => resolveTemporalCli({ env, projectRoot })).toThrow(/TEMPORAL_CLI_PATH/);
    expect(() => resolveTemporalCli({ env, projectRoot })).toThrow(missing);
  });

  it('throws when TEMPORAL_CLI_PATH points at a directory', () => {
    const env = { TEMPORAL_CLI_PATH: pathDir, PATH: '' };
    expect(() => resolveTemporalCli({ env, projectRoot })).toThrow(/TEMPORAL_CLI_PATH/);
  });

  it('falls back to the SDK download when nothing is found', () => {
    expect(resolveTemporalCli({ env: { PATH: pathDir }, projectRoot })).toEqual({ path: null, source: 'sdk-download' });
    expect(resolveTemporalCli({ env: {}, projectRoot })).toEqual({ path: null, source: 'sdk-download' });
  });

  it('places the project install under .tools/temporal-venv', () => {
    expect(PROJECT_TEMPORAL_CLI_RELATIVE_PATH.split(path.sep).slice(0, 2)).toEqual(['.tools', 'temporal-venv']);
  });
});

describe('findProjectRoot', () => {
  it('finds the repository root from this test file', () => {
    const root = findProjectRoot(__dirname);
    expect(root).toBe(path.resolve(__dirname, '..', '..', '..'));
    expect(findProjectRoot()).toBe(root);
  });
});
