#!/usr/bin/env node
// Runs the compiled CLI when built (`npm run build`), else the TypeScript sources through ts-node.
const path = require('node:path');
const fs = require('node:fs');
const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
let cli;
if (fs.existsSync(compiled)) {
  cli = require(compiled);
} else {
  require('ts-node').register({ transpileOnly: true, swc: true, project: path.join(__dirname, '..', 'tsconfig.json') });
  cli = require('../src/cli/main.ts');
}
cli.main(process.argv).then((code) => process.exit(code));
