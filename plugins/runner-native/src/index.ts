import { definePlugin, ScriptRunners, Tokens } from '@testkeeper/kernel';
import { CargoRunner } from './runners/cargo-runner.js';
import { GoRunner } from './runners/go-runner.js';
import { PytestRunner } from './runners/pytest-runner.js';

/** Native test runners (cargo test, go test, pytest) contributed to the scripts pack. */
export default definePlugin({
  id: 'runner-native',
  register(reg) {
    reg.contribute(ScriptRunners, 'cargo', (c) => new CargoRunner(c.resolve(Tokens.Sandbox)));
    reg.contribute(ScriptRunners, 'go', (c) => new GoRunner(c.resolve(Tokens.Sandbox)));
    reg.contribute(ScriptRunners, 'pytest', (c) => new PytestRunner(c.resolve(Tokens.Sandbox)));
  },
});

// Parsers are exported for tests and for other runners that read the same formats.
export { parseCargoOutput } from './parsers/cargo.js';
export { parseGoTestJson } from './parsers/go-json.js';
export { parseJUnitXml, junitSuiteTotals } from './parsers/junit.js';
export type { ParsedTests } from './parsers/parsed-tests.js';
export { CargoRunner, GoRunner, PytestRunner };
