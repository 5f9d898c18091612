import type { Action, Target } from './actions.js';

/**
 * The deterministic reader of test steps: a small set of English patterns (navigation, clicks by
 * role/label/text, typing, select, check, press, waits, and expectations on visibility, value, URL
 * and title). Anything else returns null and is reported as untranslated, never guessed.
 */

const Q = `["'“‘]([^"'”’]+)["'”’]`; // a quoted value
const Q_END = `["'“‘](.+)["'”’]`; // a quoted value that ends the step (may hold quotes itself)
const ROLES: Record<string, string> = {
  button: 'button',
  link: 'link',
  tab: 'tab',
  checkbox: 'checkbox',
  radio: 'radio',
  'radio button': 'radio',
  'menu item': 'menuitem',
  menuitem: 'menuitem',
  heading: 'heading',
  title: 'heading',
  option: 'option',
  textbox: 'textbox',
};
const ROLE_WORDS = Object.keys(ROLES).sort((a, b) => b.length - a.length).join('|');
const FIELD_WORDS = '(?:field|input|box|textbox|text box|area|textarea)';
const KEYS: Record<string, string> = { enter: 'Enter', return: 'Enter', tab: 'Tab', escape: 'Escape', esc: 'Escape', space: 'Space', backspace: 'Backspace', delete: 'Delete', 'arrow down': 'ArrowDown', 'arrow up': 'ArrowUp', 'arrow left': 'ArrowLeft', 'arrow right': 'ArrowRight' };

const clean = (s: string) => s.trim().replace(/\s+/g, ' ').replace(/[.;!]+$/, '').trim();
const unquote = (s: string) => s.trim().replace(/^["'“‘]|["'”’]$/g, '').trim();

/** "the "Sign in" button", "Sign in button", ""Email"" → a target. */
export function parseTarget(raw: string, fallback: 'text' | 'label' = 'text'): Target | null {
  const s = clean(raw)
    .replace(/^on\s+/i, '')
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/\s+(?:message|text|label|notice|banner|toast)$/i, '');
  if (!s) return null;
  const withRole = new RegExp(`^(.+?)\\s+(${ROLE_WORDS})$`, 'i').exec(s);
  if (withRole) return { by: 'role', role: ROLES[withRole[2]!.toLowerCase()]!, name: unquote(withRole[1]!) };
  const roleFirst = new RegExp(`^(${ROLE_WORDS})\\s+${Q}$`, 'i').exec(s);
  if (roleFirst) return { by: 'role', role: ROLES[roleFirst[1]!.toLowerCase()]!, name: roleFirst[2]! };
  const field = new RegExp(`^(.+?)\\s+${FIELD_WORDS}$`, 'i').exec(s);
  if (field) return { by: 'label', label: unquote(field[1]!) };
  const quoted = new RegExp(`^${Q}$`).exec(s);
  if (quoted) return fallback === 'label' ? { by: 'label', label: quoted[1]! } : { by: 'text', text: quoted[1]! };
  // Unquoted free words are only accepted as a name when they look like one (short).
  if (s.split(' ').length <= 4 && !/[{}()<>"'“”‘’]/.test(s)) return fallback === 'label' ? { by: 'label', label: s } : { by: 'text', text: s };
  return null;
}

function parseUrl(raw: string): string | null {
  const s = unquote(clean(raw).replace(/^(?:the\s+)?(?:url\s+|page\s+)?/i, ''));
  if (/^https?:\/\/\S+$/i.test(s) || /^\/\S*$/.test(s)) return s;
  if (/^(?:home ?page|home|start page|landing page|main page|root)$/i.test(s)) return '/';
  return null;
}

type Rule = (text: string) => Action[] | null;

const rules: Rule[] = [
  // Navigation: "Go to /login", "Open https://x.test", "Navigate to the home page".
  (t) => {
    const m = /^(?:go to|navigate to|open|visit|load|browse to)\s+(.+)$/i.exec(t);
    const url = m && parseUrl(m[1]!);
    return url ? [{ kind: 'goto', url }] : null;
  },
  // Typing: `Type "bob" into the "Username" field`, `Enter "x" in Email`.
  (t) => {
    const m = new RegExp(`^(?:type|enter|input|write)\\s+${Q}\\s+(?:in|into|in the|into the)\\s+(.+)$`, 'i').exec(t);
    const target = m && parseTarget(m[2]!, 'label');
    return m && target ? [{ kind: 'fill', target, value: m[1]! }] : null;
  },
  // `Fill in the "Email" field with "a@b.c"`, `Fill Password with "secret"`.
  (t) => {
    const m = new RegExp(`^(?:fill in|fill out|fill|set)\\s+(.+?)\\s+(?:with|to)\\s+${Q_END}$`, 'i').exec(t);
    const target = m && parseTarget(m[1]!, 'label');
    return m && target ? [{ kind: 'fill', target: asLabel(target), value: m[2]! }] : null;
  },
  // `Select "Germany" from the "Country" dropdown`.
  (t) => {
    const m = new RegExp(`^(?:select|choose|pick)\\s+${Q}\\s+(?:from|in)\\s+(.+?)(?:\\s+(?:dropdown|drop-down|select|list|menu|combo ?box))?$`, 'i').exec(t);
    const target = m && parseTarget(m[2]!, 'label');
    return m && target ? [{ kind: 'select', target: asLabel(target), value: m[1]! }] : null;
  },
  // `Check "Remember me"`, `Uncheck the "Newsletter" checkbox`.
  (t) => {
    const m = /^(check|tick|uncheck|untick|clear)\s+(.+?)(?:\s+(?:checkbox|check box|box))?$/i.exec(t);
    if (!m) return null;
    const target = parseTarget(m[2]!, 'label');
    return target ? [{ kind: 'check', target: asLabel(target), checked: /^(check|tick)$/i.test(m[1]!) }] : null;
  },
  // `Press Enter`, `Press the "Escape" key`.
  (t) => {
    const m = /^(?:press|hit)\s+(?:the\s+)?["']?([a-z ]+?)["']?(?:\s+key)?$/i.exec(t);
    const key = m && KEYS[m[1]!.toLowerCase()];
    return key ? [{ kind: 'press', key }] : null;
  },
  // `Click the "Sign in" button`, `Click on "Pricing"`, `Tap Login link`.
  (t) => {
    const m = /^(?:click|tap|press|click on|tap on|select)\s+(.+)$/i.exec(t);
    const target = m && parseTarget(m[1]!);
    return target ? [{ kind: 'click', target }] : null;
  },
  // `Wait 2 seconds`, `Wait for 500 ms`, `Wait for the page to load`.
  (t) => {
    const m = /^wait(?:\s+for)?\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)$/i.exec(t);
    if (m) return [{ kind: 'wait_ms', ms: Math.round(Number(m[1]) * (/^m/i.test(m[2]!) ? 1 : 1000)) }];
    return /^wait\s+(?:for\s+)?(?:the\s+)?page\s+to\s+(?:load|finish loading)$/i.test(t) ? [{ kind: 'wait_load' }] : null;
  },
  // `Wait for "Welcome" to appear` / `... to be visible`.
  (t) => {
    const m = /^wait\s+(?:for|until)\s+(.+?)\s+(?:to\s+)?(?:appear|appears|is visible|to be visible|shows|is shown|is displayed)$/i.exec(t);
    const target = m && parseTarget(m[1]!);
    return target ? [{ kind: 'expect_visible', target, visible: true }] : null;
  },
  ...expectationRules(),
];

function expectationRules(): Rule[] {
  const lead = '^(?:verify|check|assert|ensure|confirm|expect)?\\s*(?:that\\s+)?';
  return [
    // URL: `URL should contain "/dashboard"`, `The URL is "https://x/y"`, `User is redirected to /home`.
    (t) => {
      const m = new RegExp(`${lead}(?:the\\s+)?(?:page\\s+)?url\\s+(?:should\\s+|must\\s+)?(contains?|includes?|be|is|equals?|matches)\\s+(.+)$`, 'i').exec(t);
      if (m) {
        const value = unquote(m[2]!);
        return value ? [{ kind: 'expect_url', match: /^(be|is|equals?)$/i.test(m[1]!) ? 'equals' : 'contains', value }] : null;
      }
      const r = /^(?:the\s+)?(?:user\s+)?(?:is|should be|gets)\s+(?:redirected|taken|sent)\s+to\s+(.+)$/i.exec(t);
      const url = r && parseUrl(r[1]!);
      return url ? [{ kind: 'expect_url', match: 'contains', value: url }] : null;
    },
    // Title: `The title should be "Home"`, `Page title contains "Shop"`.
    (t) => {
      const m = new RegExp(`${lead}(?:the\\s+)?(?:page\\s+)?title\\s+(?:should\\s+|must\\s+)?(contains?|includes?|be|is|equals?)\\s+${Q}$`, 'i').exec(t);
      return m ? [{ kind: 'expect_title', match: /^(be|is|equals?)$/i.test(m[1]!) ? 'equals' : 'contains', value: m[2]! }] : null;
    },
    // Field value: `The "Email" field should contain "a@b.c"`, `"Qty" has value "2"`.
    (t) => {
      const m = new RegExp(`${lead}(?:the\\s+)?(.+?)\\s+(?:should\\s+)?(?:contains?|has|have|shows?)\\s+(?:the\\s+)?value\\s+${Q}$`, 'i').exec(t)
        ?? new RegExp(`${lead}(?:the\\s+)?(.+?\\s+${FIELD_WORDS})\\s+(?:should\\s+)?(?:contains?|has|have|shows?)\\s+${Q}$`, 'i').exec(t);
      const target = m && parseTarget(m[1]!, 'label');
      return m && target ? [{ kind: 'expect_value', target: asLabel(target), value: m[2]! }] : null;
    },
    // Hidden: `"Error" should not be visible`, `The spinner disappears`.
    (t) => {
      const m = new RegExp(`${lead}(?:the\\s+)?(.+?)\\s+(?:should\\s+not\\s+be|is\\s+not|isn't|must\\s+not\\s+be)\\s+(?:visible|displayed|shown)$`, 'i').exec(t)
        ?? /^(?:the\s+)?(.+?)\s+(?:disappears|is hidden|should be hidden|should disappear)$/i.exec(t);
      const target = m && parseTarget(m[1]!);
      return target ? [{ kind: 'expect_visible', target, visible: false }] : null;
    },
    // Visible: `"Welcome" is visible`, `User should see "Dashboard"`, `A "Logout" button is displayed`.
    (t) => {
      const see = new RegExp(`^(?:the\\s+)?(?:user\\s+|you\\s+|i\\s+)?(?:should\\s+|can\\s+|will\\s+)?sees?\\s+(.+)$`, 'i').exec(t);
      const is = new RegExp(`${lead}(?:the\\s+|a\\s+|an\\s+)?(.+?)\\s+(?:should\\s+be|is|are|must\\s+be|appears|should\\s+appear|is\\s+shown|should\\s+be\\s+shown)(?:\\s+(?:visible|displayed|shown|on the page|present))?$`, 'i').exec(t);
      const raw = see?.[1] ?? is?.[1];
      if (!raw) return null;
      const target = parseTarget(raw);
      return target ? [{ kind: 'expect_visible', target, visible: true }] : null;
    },
  ];
}

function asLabel(t: Target): Target {
  return t.by === 'text' ? { by: 'label', label: t.text } : t;
}

/** Splits "A, then B" / "A and then B" into parts; each part must parse. */
function parts(text: string): string[] {
  return text.split(/\s*(?:,\s*then|;\s*then|\band then\b|;)\s*/i).map(clean).filter(Boolean);
}

/** The actions of one step text, or null when any part of it is not understood. */
export function parseStep(text: string): Action[] | null {
  const all: Action[] = [];
  for (const part of parts(text)) {
    let found: Action[] | null = null;
    for (const rule of rules) {
      found = rule(part);
      if (found) break;
    }
    if (!found) return null;
    all.push(...found);
  }
  return all.length ? all : null;
}
