/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  // Engine tests spend their time waiting on the pulumi CLI, so two workers fit two cores.
  maxWorkers: 2,
  testTimeout: 60_000,
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/tests/.*/node_modules/"],
};
