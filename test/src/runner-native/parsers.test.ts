import { expect } from 'chai';
import { junitSuiteTotals, parseCargoOutput, parseGoTestJson, parseJUnitXml } from '@testkeeper/plugin-runner-native';
import { captured } from './fixtures.js';

describe('runner-native parsers (captured real output)', () => {
  describe('cargo test (libtest human format)', () => {
    const parsed = parseCargoOutput(captured('cargo-mixed.stdout'), captured('cargo-mixed.stderr'));

    it('adds up the summary lines of every test binary (unit, integration, doc-tests)', () => {
      // lib: 2 passed 1 failed 1 ignored; tests/api.rs: 1/1/1; doc-tests: 1/0/0
      expect({ passed: parsed.passed, failed: parsed.failed, skipped: parsed.skipped, total: parsed.total }).to.deep.equal({ passed: 4, failed: 2, skipped: 2, total: 8 });
      expect(parsed.buildError).to.equal(undefined);
    });

    it('lists every test with its status, the ignore reason and the panic message', () => {
      expect(parsed.tests.map((t) => [t.name, t.status])).to.deep.equal([
        ['tests::adds_negative_numbers', 'passed'],
        ['tests::adds_small_numbers', 'passed'],
        ['tests::slow_and_ignored', 'skipped'],
        ['tests::deliberately_fails', 'failed'],
        ['ignored_with_reason', 'skipped'],
        ['integration_passes', 'passed'],
        ['base_url_is_exported', 'failed'],
        ['src/lib.rs - add (line 3)', 'passed'],
      ]);
      const failing = parsed.tests.find((t) => t.name === 'tests::deliberately_fails')!;
      expect(failing.failure_message).to.include('two and two make four').and.include('panicked at src/lib.rs:26:9');
      expect(failing.failure_message).to.not.include('stack backtrace');
      expect(parsed.tests.find((t) => t.name === 'ignored_with_reason')!.failure_message).to.equal('ignored: needs a live server');
    });

    it('reports a compile error as such, not as zero tests', () => {
      const broken = parseCargoOutput(captured('cargo-compile-error.stdout'), captured('cargo-compile-error.stderr'));
      expect(broken.buildError).to.match(/^error\[E0425\]: cannot find value `undefined_variable`/);
      expect(broken.buildError).to.include('could not compile `tk_broken`');
      expect(broken.total).to.equal(0);
    });

    it('treats a binary that ran but failed as failed tests, not a build error', () => {
      expect(parseCargoOutput('test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s', 'error: test failed, to rerun pass `--lib`').buildError).to.equal(undefined);
    });

    it('strips the should-panic suffix from test names', () => {
      const p = parseCargoOutput('test tests::boom - should panic ... ok\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n', '');
      expect(p.tests).to.deep.equal([{ name: 'tests::boom', status: 'passed', duration_ms: 0 }]);
    });
  });

  describe('go test -json', () => {
    const parsed = parseGoTestJson(captured('go-mixed.jsonl'), '');

    it('counts pass/fail/skip events of tests and subtests across packages', () => {
      expect({ passed: parsed.passed, failed: parsed.failed, skipped: parsed.skipped, total: parsed.total }).to.deep.equal({ passed: 5, failed: 2, skipped: 1, total: 8 });
      expect(parsed.tests.map((t) => t.name)).to.include.members(['example.com/tkfixture/sub.TestSubPackagePasses', 'example.com/tkfixture.TestTable/zero']);
    });

    it('keeps the test output as the failure message, without the RUN/FAIL noise', () => {
      const t = parsed.tests.find((x) => x.name === 'example.com/tkfixture.TestAddFails')!;
      expect(t.status).to.equal('failed');
      expect(t.failure_message).to.equal('calc_test.go:17: Add(2, 2) = 4, want 5');
      expect(parsed.tests.find((x) => x.name === 'example.com/tkfixture.TestSkipped')!.failure_message).to.equal('calc_test.go:22: needs a live server');
    });

    it('recognises a build failure in the old form (plain FAIL line, compiler text on stderr)', () => {
      const p = parseGoTestJson(captured('go-build-failed-1.19.stdout'), captured('go-build-failed-1.19.stderr'));
      expect(p.buildError).to.include('build failed for example.com/tkbroken').and.include('cannot use "not an int"');
      expect(p.total).to.equal(0);
    });

    it('recognises a build failure in the new form (build-output events and FailedBuild)', () => {
      const events = [
        { ImportPath: 'example.com/x [example.com/x.test]', Action: 'build-output', Output: '# example.com/x\n' },
        { ImportPath: 'example.com/x [example.com/x.test]', Action: 'build-output', Output: './x_test.go:6:14: undefined: y\n' },
        { ImportPath: 'example.com/x [example.com/x.test]', Action: 'build-fail' },
        { Action: 'start', Package: 'example.com/x' },
        { Action: 'output', Package: 'example.com/x', Output: 'FAIL\texample.com/x [build failed]\n' },
        { Action: 'fail', Package: 'example.com/x', Elapsed: 0, FailedBuild: 'example.com/x [example.com/x.test]' },
      ];
      const p = parseGoTestJson(events.map((e) => JSON.stringify(e)).join('\n'), '');
      expect(p.buildError).to.include('./x_test.go:6:14: undefined: y');
      expect(p.total).to.equal(0);
    });
  });

  describe('pytest JUnit XML', () => {
    const xml = captured('pytest-junit.xml');
    const parsed = parseJUnitXml(xml);

    it('agrees with the totals pytest wrote into the report', () => {
      const totals = junitSuiteTotals(xml);
      expect(parsed.total).to.equal(totals.tests);
      expect(parsed.failed).to.equal(totals.failures + totals.errors);
      expect(parsed.skipped).to.equal(totals.skipped);
      // pytest's own summary line: 1 failed, 5 passed, 1 skipped, 1 xfailed, 1 error
      expect({ passed: parsed.passed, failed: parsed.failed, skipped: parsed.skipped, total: parsed.total }).to.deep.equal({ passed: 5, failed: 2, skipped: 2, total: 9 });
    });

    it('maps failures, setup errors, skips and xfails, decoding the XML entities', () => {
      const by = Object.fromEntries(parsed.tests.map((t) => [t.name, t]));
      expect(by['test_sample::test_fails']!.failure_message).to.match(/^AssertionError: the dictionaries differ\nassert \{'a': 1\} == \{'a': 2\}/);
      expect(by['test_more::test_setup_error']!.failure_message).to.equal('error: failed on setup with "RuntimeError: setup exploded"');
      expect(by['test_sample::test_skipped']).to.include({ status: 'skipped', failure_message: 'needs a live server' });
      expect(by['test_more::test_expected_failure']!.status).to.equal('skipped');
      expect(by['test_sample.TestGroup::test_in_class']!.status).to.equal('passed');
      expect(by['test_more::test_param[2]']!.status).to.equal('passed');
    });
  });
});
