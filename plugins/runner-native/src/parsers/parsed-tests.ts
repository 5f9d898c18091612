import type { TestOutcome } from '@testkeeper/kernel';

/** What a parser reads from a toolchain's output, before the run status is decided. */
export interface ParsedTests {
  tests: TestOutcome[];
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  /** The suite could not be built (compile error, build failure, collection error): its messages. */
  buildError?: string;
}

export function countOutcomes(tests: TestOutcome[]): Pick<ParsedTests, 'passed' | 'failed' | 'skipped' | 'total'> {
  const passed = tests.filter((t) => t.status === 'passed').length;
  const failed = tests.filter((t) => t.status === 'failed').length;
  const skipped = tests.filter((t) => t.status === 'skipped').length;
  return { passed, failed, skipped, total: passed + failed + skipped };
}

/** Keeps failure messages readable in results and logs. */
export function clip(text: string, max = 2000): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
