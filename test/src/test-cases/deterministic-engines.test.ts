import { expect } from 'chai';
import { generateSteps, sentenceToStep } from '../../../plugins/projects/dist/test-cases/engines/step-generator.js';
import { detectIntents } from '../../../plugins/projects/dist/test-cases/engines/intents.js';
import { enhanceDeterministic } from '../../../plugins/projects/dist/test-cases/engines/enhancer.js';
import { normalizePriority } from '../../../plugins/projects/dist/test-cases/domain/priority.js';
import { mobileSelector } from '../../../plugins/projects/dist/test-cases/domain/steps.js';

const stepsText = (title: string, description = '') => generateSteps(title, description).steps.map((s) => `${s.step} => ${s.expected}`).join('\n');
const intentIds = (title: string, description = '') => detectIntents(title, description).map((i) => i.id);

describe('test cases: deterministic step generation', () => {
  it('recognizes the common intents', () => {
    const cases: Array<[string, string, string]> = [
      ['User logs in', '', 'log_in'],
      ['Sign up with email', '', 'sign_up'],
      ['Search the catalogue', '', 'search'],
      ['Contact form', 'Fill in the contact form and submit it', 'submit_form'],
      ['Navigate to /pricing', '', 'navigate'],
      ['Add a product to the cart', '', 'add_to_cart'],
      ['Checkout as guest', '', 'checkout'],
      ['Create a project', '', 'create_item'],
      ['Edit an invoice', '', 'edit_item'],
      ['Delete a comment', '', 'delete_item'],
      ['Log out', '', 'log_out'],
    ];
    for (const [title, description, intent] of cases) expect(intentIds(title, description), title).to.include(intent);
  });

  it('gives every generated step an expectation', () => {
    for (const title of ['User logs in', 'Sign up', 'Search orders', 'Add item to cart', 'Checkout', 'Create a project', 'Edit a user', 'Delete a file', 'Visit https://example.com/help']) {
      const { steps } = generateSteps(title, '');
      expect(steps.length, title).to.be.greaterThan(1);
      for (const s of steps) expect(s.expected, `${title}: ${s.step}`).to.be.a('string').and.not.empty;
    }
  });

  it('writes a negative login test for a failure scenario', () => {
    const text = stepsText('Login fails with a wrong password');
    expect(text).to.match(/incorrect password/).and.match(/error message/i).and.match(/No session/);
  });

  it('keeps the search term and names the object acted on', () => {
    expect(stepsText('Search for "red shoes"')).to.include('Type "red shoes" into the search field');
    expect(stepsText('Delete a saved address from the account')).to.include('Open the saved address list');
    expect(stepsText('Edit the billing profile')).to.include('Open an existing billing profile');
  });

  it('puts the cart before checkout and drops the precondition the steps satisfy', () => {
    expect(intentIds('Guest checkout', 'Check out after adding a hat to the cart')).to.deep.equal(['add_to_cart', 'checkout']);
    const { preconditions } = generateSteps('Guest checkout', 'Add a product to the cart, then check out');
    expect(preconditions.join(' ')).not.to.match(/cart holds/);
  });

  it("does not also read sign-up as log-in, or 'add to cart' as create", () => {
    expect(intentIds('Register and log in')).to.deep.equal(['sign_up']);
    expect(intentIds('Add shoes to the cart')).to.deep.equal(['add_to_cart']);
  });

  it("follows the author's own procedure sentence by sentence", () => {
    const { steps } = generateSteps('Export report', 'Open the reports page. Click Export and a CSV file should be downloaded. Verify the file has one row per order.');
    expect(steps).to.deep.equal([
      { step: 'Open the reports page', expected: 'Reports page loads without errors' },
      { step: 'Click Export', expected: 'A CSV file should be downloaded' },
      { step: 'Check that the file has one row per order', expected: 'The file has one row per order' },
    ]);
  });

  it('adds stated requirements that the intent steps do not already check', () => {
    const { steps } = generateSteps('Search products', 'Search for "boots". The result count must be shown above the list.');
    expect(steps.at(-1)).to.deep.equal({ step: 'Verify the requirement: the result count must be shown above the list', expected: 'The result count must be shown above the list' });
    const dup = generateSteps('Login with wrong password', 'An error should be shown.').steps;
    expect(dup.filter((s) => /error/i.test(`${s.step} ${s.expected}`))).to.have.length(1);
  });

  it('still produces usable steps from a bare title', () => {
    const { steps } = generateSteps('Quarterly tax rounding', '');
    expect(steps).to.have.length(3);
    expect(steps[1]!.step).to.include('Quarterly tax rounding');
  });

  it('splits an action from its expectation', () => {
    expect(sentenceToStep('Press save, so the record should be stored')).to.deep.equal({ step: 'Press save', expected: 'The record should be stored' });
    expect(sentenceToStep('Enter the coupon code')).to.deep.equal({ step: 'Enter the coupon code', expected: 'The field shows the entered value and no validation error' });
  });
});

describe('test cases: deterministic enhancement', () => {
  it('fills only what is missing', () => {
    const out = enhanceDeterministic({
      title: 'User logs in',
      description: 'A registered user signs in with valid credentials and reaches the dashboard.',
      preconditions: 'A registered user account with a known password exists.',
      steps: [{ step: 'Open the login page', expected: 'The form is shown' }, { step: 'Enter valid credentials' }, { step: 'Click "Log in"' }],
    });
    expect(out.steps.slice(0, 3).map((s) => s.step)).to.deep.equal(['Open the login page', 'Enter valid credentials', 'Click "Log in"']);
    expect(out.steps[0]!.expected).to.equal('The form is shown');
    expect(out.added.expectations).to.equal(2);
    expect(out.preconditions.match(/registered user account/g)).to.have.length(1);
    expect(out.added.description).to.equal(false);
    expect(out.description).to.equal('A registered user signs in with valid credentials and reaches the dashboard.');
  });

  it('is idempotent', () => {
    const first = enhanceDeterministic({ title: 'Create a project', description: '', preconditions: '', steps: [] });
    const second = enhanceDeterministic({ ...first, title: 'Create a project' });
    expect(second.steps).to.deep.equal(first.steps);
    expect(second.preconditions).to.equal(first.preconditions);
    expect(second.added).to.deep.equal({ steps: 0, expectations: 0, preconditions: 0, verification_points: 0, description: false });
  });
});

describe('test cases: priority and mobile selectors', () => {
  it('maps numbers and words, rejecting the rest', () => {
    expect([1, 2, 3, 4, 5].map((n) => normalizePriority(n))).to.deep.equal(['critical', 'high', 'medium', 'low', 'low']);
    expect(() => normalizePriority('highest')).to.throw(/not accepted/);
  });

  it('reads a resource_id or the quoted visible text as the target', () => {
    expect(mobileSelector({ step: 'Tap it', resource_id: 'com.a:id/ok' })).to.deep.equal({ resource_id: 'com.a:id/ok' });
    expect(mobileSelector({ step: 'Tap "Sign in"' })).to.deep.equal({ text: 'Sign in' });
    expect(mobileSelector({ step: 'Tap the button' })).to.equal(null);
  });
});

describe('test cases: document extraction', () => {
  it('reads named cases, bold headings and container headings', async () => {
    const { extractTestCases } = await import('../../../plugins/projects/dist/test-cases/engines/document-extractor.js');
    const cases = extractTestCases(
      [
        '# Accounts',
        '## Profile',
        'Test case 3: Change display name (P2)',
        '1. Open settings',
        '2. Type a new name => The preview updates',
        'Expected result: The new name is shown in the header',
        '',
        '**Upload avatar**',
        '- Choose a PNG',
        'Priority: low',
      ].join('\n'),
    );
    expect(cases).to.deep.equal([
      {
        title: 'Change display name',
        description: '',
        preconditions: '',
        priority: '2',
        category: 'Profile',
        steps: [{ step: 'Open settings' }, { step: 'Type a new name', expected: 'The preview updates; The new name is shown in the header' }],
      },
      { title: 'Upload avatar', description: '', preconditions: '', priority: 'low', category: 'Profile', steps: [{ step: 'Choose a PNG' }] },
    ]);
  });

  it('turns loose list items and requirement sentences into cases, ignoring plain prose', async () => {
    const { extractTestCases } = await import('../../../plugins/projects/dist/test-cases/engines/document-extractor.js');
    const cases = extractTestCases('Notes from the meeting.\n- Admins can export the audit log\nThe system shall email a receipt. It is sunny.');
    expect(cases.map((c) => c.title)).to.deep.equal(['Admins can export the audit log', 'The system shall email a receipt']);
    expect(extractTestCases('Nothing to test here.')).to.deep.equal([]);
  });
});
