import { expect } from 'chai';
import { CREDIT_GATES, effectiveGates, GATE_KEYS, parseSettings, unknownGateKeys, withGates } from '../../../plugins/projects/dist/services/gates.js';

describe('projects: pipeline gates (pure)', () => {
  it('accepts exactly the eight gate keys of the specification', () => {
    expect([...GATE_KEYS]).to.deep.equal([
      '_pipeline_run_tests',
      '_pipeline_run_beta',
      '_pipeline_run_ai_review',
      '_pipeline_run_sast',
      '_pipeline_run_sast_verify',
      '_pipeline_run_sast_fixes',
      '_pipeline_run_bola',
      '_pipeline_run_tech_debt',
    ]);
    expect(unknownGateKeys({ _pipeline_run_tests: true, _pipeline_run_sast: false })).to.deep.equal([]);
    expect(unknownGateKeys({ _pipeline_run_tests: true, run_tests: true, _pipeline_run_lint: false })).to.deep.equal(['run_tests', '_pipeline_run_lint']);
  });

  it('defaults credit-spending gates (ai_review, sast, bola) to off and the others to on', () => {
    expect([...CREDIT_GATES]).to.deep.equal(['_pipeline_run_ai_review', '_pipeline_run_sast', '_pipeline_run_bola']);
    expect(effectiveGates({})).to.deep.equal({
      _pipeline_run_tests: true,
      _pipeline_run_beta: true,
      _pipeline_run_ai_review: false,
      _pipeline_run_sast: false,
      _pipeline_run_sast_verify: true,
      _pipeline_run_sast_fixes: true,
      _pipeline_run_bola: false,
      _pipeline_run_tech_debt: true,
    });
  });

  it('uses stored booleans and ignores stored non-booleans', () => {
    const g = effectiveGates({ _pipeline_run_tests: false, _pipeline_run_bola: true, _pipeline_run_sast: 'yes' });
    expect(g).to.include({ _pipeline_run_tests: false, _pipeline_run_bola: true, _pipeline_run_sast: false });
  });

  it('sets gates and keeps every other setting', () => {
    const settings = { model: { provider: 'local', name: 'm1' }, _pipeline_run_beta: false, frameworks: ['playwright'] };
    const next = withGates(settings, { _pipeline_run_sast: true, _pipeline_run_beta: true });
    expect(next).to.deep.equal({ model: { provider: 'local', name: 'm1' }, _pipeline_run_beta: true, frameworks: ['playwright'], _pipeline_run_sast: true });
    expect(settings._pipeline_run_beta).to.equal(false);
  });

  it('reads stored settings defensively', () => {
    expect(parseSettings('{"a":1}')).to.deep.equal({ a: 1 });
    expect(parseSettings('')).to.deep.equal({});
    expect(parseSettings(null)).to.deep.equal({});
    expect(parseSettings('[1,2]')).to.deep.equal({});
    expect(parseSettings('not json')).to.deep.equal({});
  });
});
