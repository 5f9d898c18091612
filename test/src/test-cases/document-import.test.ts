import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { countRows, expectError, newProject } from './helpers.js';

export const SPEC_DOC = `# Checkout module

## TC-1: Guest checkout [High]
Preconditions: A product is in the cart
1. Open the cart
2. Click "Checkout" -> The checkout page opens
3. Enter a shipping address
Expected: The order confirmation is shown

## Apply coupon
- Enter code SAVE10
- Click Apply
- The total should drop by 10%

Feature: Login
  Scenario: Valid login
    Given a registered user
    When the user enters valid credentials
    And clicks "Log in"
    Then the dashboard is shown
    And the user's name is in the header

| Test case | Steps | Expected result | Priority |
|---|---|---|---|
| Reset password | Open login; Click "Forgot password"; Enter email | A reset email is sent | 2 |
| Change avatar | Upload a PNG | The new avatar is shown | low |

The system must lock an account after 5 failed logins. This sentence is only context.
`;

onEachBackend(describe, before, 'test cases: import_test_cases_from_document', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host, 'Import target');
  });
  after(async () => host?.close());

  const byTitle = async (pid: number) => {
    const list = await host.ok('list_test_cases', { project_id: pid, limit: 100 });
    const out: Record<string, any> = {};
    for (const item of list.items) out[item.title] = await host.ok('get_test_case', { test_case_id: item.id });
    return out;
  };

  it('extracts sections, Gherkin scenarios, table rows and requirements with their steps', async () => {
    const res = await host.ok('import_test_cases_from_document', { project_id: projectId, text_content: SPEC_DOC, source_name: 'release-3-spec.md' });
    expect(res).to.include({ source_name: 'release-3-spec.md', found: 6, engine: 'deterministic' });
    expect(res.created.map((c: { title: string }) => c.title)).to.deep.equal([
      'Guest checkout',
      'Apply coupon',
      'Valid login',
      'Reset password',
      'Change avatar',
      'The system must lock an account after 5 failed logins',
    ]);
    const cases = await byTitle(projectId);
    const guest = cases['Guest checkout'];
    expect(guest).to.include({ priority: 'high', category: 'Checkout module', preconditions: 'A product is in the cart', source_name: 'release-3-spec.md', status: 'draft' });
    expect(guest.steps).to.deep.equal([
      { step: 'Open the cart' },
      { step: 'Click "Checkout"', expected: 'The checkout page opens' },
      { step: 'Enter a shipping address', expected: 'The order confirmation is shown' },
    ]);
    expect(cases['Apply coupon'].steps.at(-1)).to.deep.equal({ step: 'Click Apply', expected: 'The total should drop by 10%' });
    expect(cases['Valid login']).to.include({ category: 'Login', preconditions: 'A registered user' });
    expect(cases['Valid login'].steps.at(-1)).to.deep.equal({ step: 'Clicks "Log in"', expected: "The dashboard is shown; the user's name is in the header" });
    expect(cases['Reset password'].priority).to.equal('high');
    expect(cases['Reset password'].steps).to.have.length(3);
    expect(cases['Change avatar']).to.include({ priority: 'low' });
    expect(cases['The system must lock an account after 5 failed logins'].steps).to.deep.equal([]);
    expect(guest.tags).to.deep.equal(['imported']);
  });

  it('creates no duplicates when the same document is imported again', async () => {
    const before = await countRows(host, 'projects_test_cases', 'project_id = ?', [projectId]);
    const res = await host.ok('import_test_cases_from_document', { project_id: projectId, text_content: SPEC_DOC, source_name: 'release-3-spec.md' });
    expect(res.created).to.deep.equal([]);
    expect(res.already_imported).to.have.length(6);
    expect(await countRows(host, 'projects_test_cases', 'project_id = ?', [projectId])).to.equal(before);
  });

  it('keeps edits made after an import', async () => {
    const pid = await newProject(host, 'Edited import');
    const first = await host.ok('import_test_cases_from_document', { project_id: pid, text_content: '## Apply coupon\n- Enter code\n- Click Apply' });
    const id = first.created[0].id;
    await host.ok('update_test_case', { test_case_id: id, status: 'ready' });
    const again = await host.ok('import_test_cases_from_document', { project_id: pid, text_content: '## Apply coupon\n- Enter a different code\n- Click Apply' });
    expect(again.already_imported).to.deep.equal([{ id, title: 'Apply coupon' }]);
    expect((await host.ok('get_test_case', { test_case_id: id })).status).to.equal('ready');
    expect(first.source_name).to.equal('document');
  });

  it('rejects empty or case-free text and foreign projects, writing nothing', async () => {
    const before = await countRows(host, 'projects_test_cases');
    await expectError(host, 'import_test_cases_from_document', { project_id: projectId, text_content: '   ' }, 'invalid_argument');
    const none = await expectError(host, 'import_test_cases_from_document', { project_id: projectId, text_content: 'Just a note about lunch.' }, 'invalid_argument');
    expect(none.hint).to.match(/Scenario/);
    await expectError(host, 'import_test_cases_from_document', { project_id: projectId }, 'invalid_argument');
    await expectError(host, 'import_test_cases_from_document', { project_id: projectId, text_content: 'x'.repeat(200_001) }, 'invalid_argument');
    const foreign = await expectError(bob, 'import_test_cases_from_document', { project_id: projectId, text_content: SPEC_DOC }, 'not_found');
    expect(foreign.message).to.equal(`project ${projectId} was not found`);
    expect(await countRows(host, 'projects_test_cases')).to.equal(before);
  });

  describe('with a model', () => {
    let sampled: TestHost;
    before(async () => {
      sampled = await startTestHost({
        storage: backend,
        sampling: () => ({
          model: 'doc-model',
          role: 'assistant',
          content: { type: 'text', text: JSON.stringify({ test_cases: [{ title: 'Refund an order', steps: [{ step: 'Open the order', expected: 'Details shown' }], priority: 1 }] }) },
        }),
      });
    });
    after(async () => sampled?.close());

    it('falls back to the extractor when the model finds nothing', async () => {
      const empty = await startTestHost({ storage: backend, sampling: () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: '{"test_cases": []}' } }) });
      try {
        const pid = await newProject(empty, 'Empty model');
        const res = await empty.ok('import_test_cases_from_document', { project_id: pid, text_content: SPEC_DOC });
        expect(res).to.include({ engine: 'deterministic', found: 6 });
        expect(res.fallback_reason).to.match(/mcp_sampling: the model found no test cases/);
      } finally {
        await empty.close();
      }
    });

    it('uses the model output and records the engine', async () => {
      const pid = await newProject(sampled, 'Model import');
      const res = await sampled.ok('import_test_cases_from_document', { project_id: pid, text_content: 'Refunds: staff can refund an order.', source_name: 'refunds.txt' });
      expect(res).to.include({ engine: 'mcp_sampling', model: 'doc-model', found: 1 });
      const tc = await sampled.ok('get_test_case', { test_case_id: res.created[0].id });
      expect(tc).to.include({ title: 'Refund an order', priority: 'critical', source_name: 'refunds.txt' });
    });
  });
});
