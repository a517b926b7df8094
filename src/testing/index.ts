/** Test support for users of the package: a dev server with deerflow workers. */
export { createTestEnvironment } from './create-test-environment';
export type { DeerflowTestEnvironment, TestEnvironmentOptions } from './create-test-environment';
