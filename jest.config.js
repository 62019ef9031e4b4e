/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  // Transpiled only (swc, no type-check): `npm run typecheck` checks the types of every file once,
  // tests included, and `npm test` runs it before jest.
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "typescript" }, target: "es2022", transform: { useDefineForClassFields: true } },
        module: { type: "commonjs" },
      },
    ],
  },
  // Engine tests spend their time waiting on the pulumi CLI, so two workers fit two cores.
  maxWorkers: 2,
  testTimeout: 60_000,
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/tests/.*/node_modules/"],
};
