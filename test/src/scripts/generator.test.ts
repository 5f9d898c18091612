import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkCode, generateDeterministic, parseStep, pytestFunctionName } from '@testkeeper/plugin-scripts/generation';

const run = promisify(execFile);

const LOGIN = {
  title: 'Login works with "valid" credentials',
  steps: [
    { step: 'Go to /login', expected: 'The page title should contain "Sign in"' },
    { step: 'Type "alice@example.com" into the "Email" field', expected: '' },
    { step: 'Fill in the "Password" field with "s3cret\'\\"x"' },
    { step: 'Select "Germany" from the "Country" dropdown' },
    { step: 'Check the "Remember me" checkbox' },
    { step: 'Click the "Sign in" button', expected: 'User should see "Welcome, Alice"' },
    { step: 'Press Enter' },
    { step: 'Wait 2 seconds' },
    { step: 'Wait for the page to load', expected: 'The URL should contain "/dashboard"' },
    { step: 'Open https://example.com/help', expected: 'The "Error" message should not be visible' },
    { step: 'Feel the vibe of the page', expected: 'It sparks joy' },
  ],
};

describe('deterministic generator', () => {
  it('parses each supported step kind', () => {
    expect(parseStep('Go to /login')).to.deep.equal([{ kind: 'goto', url: '/login' }]);
    expect(parseStep('Navigate to the home page')).to.deep.equal([{ kind: 'goto', url: '/' }]);
    expect(parseStep('Click the "Sign in" button')).to.deep.equal([{ kind: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } }]);
    expect(parseStep('Click on "Pricing" link')).to.deep.equal([{ kind: 'click', target: { by: 'role', role: 'link', name: 'Pricing' } }]);
    expect(parseStep('Click "Docs"')).to.deep.equal([{ kind: 'click', target: { by: 'text', text: 'Docs' } }]);
    expect(parseStep('Type "bob" into the "Username" field')).to.deep.equal([{ kind: 'fill', target: { by: 'label', label: 'Username' }, value: 'bob' }]);
    expect(parseStep('Enter "x@y.z" in Email')).to.deep.equal([{ kind: 'fill', target: { by: 'label', label: 'Email' }, value: 'x@y.z' }]);
    expect(parseStep('Select "DE" from the "Country" dropdown')).to.deep.equal([{ kind: 'select', target: { by: 'label', label: 'Country' }, value: 'DE' }]);
    expect(parseStep('Uncheck "Newsletter"')).to.deep.equal([{ kind: 'check', target: { by: 'label', label: 'Newsletter' }, checked: false }]);
    expect(parseStep('Press the Escape key')).to.deep.equal([{ kind: 'press', key: 'Escape' }]);
    expect(parseStep('Wait for 500 ms')).to.deep.equal([{ kind: 'wait_ms', ms: 500 }]);
    expect(parseStep('Wait for "Saved" to appear')).to.deep.equal([{ kind: 'expect_visible', target: { by: 'text', text: 'Saved' }, visible: true }]);
    expect(parseStep('The URL should contain "/done"')).to.deep.equal([{ kind: 'expect_url', match: 'contains', value: '/done' }]);
    expect(parseStep('User is redirected to /home')).to.deep.equal([{ kind: 'expect_url', match: 'contains', value: '/home' }]);
    expect(parseStep('Title is "Shop"')).to.deep.equal([{ kind: 'expect_title', match: 'equals', value: 'Shop' }]);
    expect(parseStep('The "Qty" field should have value "2"')).to.deep.equal([{ kind: 'expect_value', target: { by: 'label', label: 'Qty' }, value: '2' }]);
    expect(parseStep('"Welcome" is visible')).to.deep.equal([{ kind: 'expect_visible', target: { by: 'text', text: 'Welcome' }, visible: true }]);
    expect(parseStep('The "Checkout" heading is displayed')).to.deep.equal([{ kind: 'expect_visible', target: { by: 'role', role: 'heading', name: 'Checkout' }, visible: true }]);
    expect(parseStep('Type "a" into "Search", then press Enter')).to.deep.equal([
      { kind: 'fill', target: { by: 'label', label: 'Search' }, value: 'a' },
      { kind: 'press', key: 'Enter' },
    ]);
  });

  it('does not guess: unclear steps are untranslated', () => {
    for (const t of ['Feel the vibe of the page', 'Go to the settings', 'The user is logged in', 'Do the usual checkout routine with all the extras', 'Type something somewhere']) {
      expect(parseStep(t), t).to.equal(null);
    }
  });

  it('translates every step or lists it as untranslated (Playwright)', async () => {
    const out = generateDeterministic(LOGIN, 'browser');
    expect(out.untranslated).to.deep.equal(['Step 11: Feel the vibe of the page', 'Step 11 (expected): It sparks joy']);
    expect(out.translated).to.equal(14);
    expect(out.code).to.contain("import { test, expect } from '@playwright/test';");
    expect(out.code).to.contain('await page.goto("/login");');
    expect(out.code).to.contain('await page.getByLabel("Email").fill("alice@example.com");');
    expect(out.code).to.contain('await page.getByRole("button", { name: "Sign in" }).first().click();');
    expect(out.code).to.contain('await expect(page.getByText("Welcome, Alice").first()).toBeVisible();');
    expect(out.code).to.contain('await expect(page).toHaveURL(new RegExp("\\\\/dashboard"));');
    expect(out.code).to.contain('await page.getByLabel("Country").selectOption("Germany");');
    expect(out.code).to.contain('await page.getByLabel("Remember me").check();');
    expect(out.code).to.contain('await page.keyboard.press("Enter");');
    expect(out.code).to.contain('await page.waitForTimeout(2000);');
    expect(out.code).to.contain('await expect(page.getByText("Error").first()).toBeHidden();');
    expect(out.code).to.contain('// UNTRANSLATED');
    const check = await checkCode('browser', out.code);
    expect(check).to.include({ ok: true });
    expect(check.checker).to.match(/^typescript /);
  });

  it('generates pytest code that byte-compiles with python3 -m py_compile', async () => {
    const out = generateDeterministic(LOGIN, 'pytest');
    expect(out.untranslated).to.have.length(2);
    expect(out.code).to.contain('def test_login_works_with_valid_credentials(page: Page) -> None:');
    expect(out.code).to.contain('page.get_by_role("button", name="Sign in").first.click()');
    expect(out.code).to.contain('expect(page).to_have_title(re.compile(re.escape("Sign in")))');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tk-gen-'));
    try {
      const file = path.join(dir, 'test_generated.py');
      writeFileSync(file, out.code);
      await run('python3', ['-m', 'py_compile', file]);
      expect(await checkCode('pytest', out.code)).to.include({ ok: true, checker: 'python3' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('escapes hostile step text so the code still compiles', async () => {
    const nasty = {
      title: 'x"; process.exit(1); //\n"""\\',
      steps: [
        { step: 'Click "*/ }); evil(); /*"', expected: 'Title is "\\u0000"' },
        { step: 'Go to /a\nb', expected: '"""\'\'\' is visible' },
      ],
    };
    for (const fw of ['browser', 'pytest'] as const) {
      const out = generateDeterministic(nasty, fw);
      const check = await checkCode(fw, out.code);
      expect(check.errors, out.code).to.deep.equal([]);
    }
  });

  it('reports broken code', async () => {
    expect((await checkCode('browser', 'test("x", async () => {')).ok).to.equal(false);
    const py = await checkCode('pytest', 'def broken(:\n  pass\n');
    expect(py.ok).to.equal(false);
    expect(py.errors[0]).to.contain('SyntaxError');
  });

  it('makes python function names from titles', () => {
    expect(pytestFunctionName('Checkout: pays with card!')).to.equal('test_checkout_pays_with_card');
    expect(pytestFunctionName('???')).to.equal('test_case');
  });
});
