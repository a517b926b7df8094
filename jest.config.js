/** Type-checking runs separately (`npm run typecheck`): ts-jest only transpiles here. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true }] },
  testTimeout: 120_000,
  // Most suites wait on their dev server and on timers, not on a core: two workers halve the suite's
  // wall time on the 2-core CI machine (jest's default there is one). More would mean more dev
  // servers at once for little gain.
  maxWorkers: 2,
  setupFiles: ['<rootDir>/tests/support/setup-logging.ts'],
};
