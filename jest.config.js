/**
 * Three projects: `unit` (pure logic, no services), `workflows` (each workflow on a real Temporal dev server with fake activities) and `integration`
 * (real Temporal dev server and database).
 */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  // light-my-request (fastify.inject) needs `cookie`, and @fastify/static (the reference page's files)
  // `content-disposition`, which ship only as ESM; Jest's CommonJS runtime needs them compiled.
  '^.+/node_modules/(cookie|content-disposition)/.+\\.js$': [
    'ts-jest',
    { tsconfig: { allowJs: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2023', isolatedModules: true } },
  ],
};
const transformIgnorePatterns = ['/node_modules/(?!(cookie|content-disposition)/)'];

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      displayName: 'workflows',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/workflows/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      slowTestThreshold: 30,
    },
  ],
  testTimeout: 60000,
  maxWorkers: 2,
};
