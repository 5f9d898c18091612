import type { Action, StepPlan, Target } from './actions.js';

/** JSON string literals are valid string literals in both TypeScript and Python. */
const str = (s: string) => JSON.stringify(s);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Keeps a comment on one line whatever the step text holds. */
const comment = (s: string) => s.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/\*\//g, '* /');

function tsTarget(t: Target): string {
  if (t.by === 'role') return `page.getByRole(${str(t.role)}, { name: ${str(t.name)} })`;
  if (t.by === 'label') return `page.getByLabel(${str(t.label)})`;
  return `page.getByText(${str(t.text)})`;
}

function tsAction(a: Action): string {
  switch (a.kind) {
    case 'goto':
      return `await page.goto(${str(a.url)});`;
    case 'click':
      return `await ${tsTarget(a.target)}.first().click();`;
    case 'fill':
      return `await ${tsTarget(a.target)}.fill(${str(a.value)});`;
    case 'select':
      return `await ${tsTarget(a.target)}.selectOption(${str(a.value)});`;
    case 'check':
      return `await ${tsTarget(a.target)}.${a.checked ? 'check' : 'uncheck'}();`;
    case 'press':
      return `await page.keyboard.press(${str(a.key)});`;
    case 'wait_ms':
      return `await page.waitForTimeout(${a.ms});`;
    case 'wait_load':
      return `await page.waitForLoadState('load');`;
    case 'expect_visible':
      return `await expect(${tsTarget(a.target)}.first()).${a.visible ? 'toBeVisible' : 'toBeHidden'}();`;
    case 'expect_value':
      return `await expect(${tsTarget(a.target)}).toHaveValue(${str(a.value)});`;
    case 'expect_url':
      return a.match === 'equals' && /^https?:/.test(a.value)
        ? `await expect(page).toHaveURL(${str(a.value)});`
        : `await expect(page).toHaveURL(new RegExp(${str(escapeRegExp(a.value))}));`;
    case 'expect_title':
      return a.match === 'equals' ? `await expect(page).toHaveTitle(${str(a.value)});` : `await expect(page).toHaveTitle(new RegExp(${str(escapeRegExp(a.value))}));`;
  }
}

function pyTarget(t: Target): string {
  if (t.by === 'role') return `page.get_by_role(${str(t.role)}, name=${str(t.name)})`;
  if (t.by === 'label') return `page.get_by_label(${str(t.label)})`;
  return `page.get_by_text(${str(t.text)})`;
}

function pyAction(a: Action): string {
  switch (a.kind) {
    case 'goto':
      return `page.goto(${str(a.url)})`;
    case 'click':
      return `${pyTarget(a.target)}.first.click()`;
    case 'fill':
      return `${pyTarget(a.target)}.fill(${str(a.value)})`;
    case 'select':
      return `${pyTarget(a.target)}.select_option(${str(a.value)})`;
    case 'check':
      return `${pyTarget(a.target)}.${a.checked ? 'check' : 'uncheck'}()`;
    case 'press':
      return `page.keyboard.press(${str(a.key)})`;
    case 'wait_ms':
      return `page.wait_for_timeout(${a.ms})`;
    case 'wait_load':
      return `page.wait_for_load_state("load")`;
    case 'expect_visible':
      return `expect(${pyTarget(a.target)}.first).${a.visible ? 'to_be_visible' : 'to_be_hidden'}()`;
    case 'expect_value':
      return `expect(${pyTarget(a.target)}).to_have_value(${str(a.value)})`;
    case 'expect_url':
      return a.match === 'equals' && /^https?:/.test(a.value)
        ? `expect(page).to_have_url(${str(a.value)})`
        : `expect(page).to_have_url(re.compile(re.escape(${str(a.value)})))`;
    case 'expect_title':
      return a.match === 'equals' ? `expect(page).to_have_title(${str(a.value)})` : `expect(page).to_have_title(re.compile(re.escape(${str(a.value)})))`;
  }
}

/** A Playwright Test file; relative URLs resolve against the config's baseURL (BASE_URL). */
export function renderPlaywright(title: string, plans: StepPlan[]): string {
  const body: string[] = [];
  for (const p of plans) {
    body.push(`  // ${comment(p.label)}: ${comment(p.text)}`);
    if (p.actions) for (const a of p.actions) body.push(`  ${tsAction(a)}`);
    else body.push('  // UNTRANSLATED: write this step by hand.');
  }
  if (!plans.some((p) => p.actions)) body.push('  test.fixme(true, "No step could be translated automatically.");');
  return ["import { test, expect } from '@playwright/test';", '', `test(${str(title)}, async ({ page }) => {`, ...body, '});', ''].join('\n');
}

/** A pytest-playwright test; relative URLs resolve against the `base_url` fixture (BASE_URL). */
export function renderPytest(title: string, functionName: string, plans: StepPlan[]): string {
  const body: string[] = [];
  for (const p of plans) {
    body.push(`    # ${comment(p.label)}: ${comment(p.text)}`);
    if (p.actions) for (const a of p.actions) body.push(`    ${pyAction(a)}`);
    else body.push('    # UNTRANSLATED: write this step by hand.');
  }
  const none = !plans.some((p) => p.actions);
  if (none) body.push('    pytest.skip("No step could be translated automatically.")');
  const usesRe = body.some((line) => line.includes('re.compile('));
  return [
    str(comment(title)),
    ...(usesRe ? ['import re', ''] : []),
    ...(none ? ['import pytest'] : []),
    'from playwright.sync_api import Page, expect',
    '',
    '',
    `def ${functionName}(page: Page) -> None:`,
    ...body,
    '',
  ].join('\n');
}
