/** Type-checking runs separately (`npm run typecheck`): ts-jest only transpiles here. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true }] },
  testTimeout: 120_000,
  setupFiles: ['<rootDir>/tests/support/setup-logging.ts'],
};
