import type { Step } from '../domain/steps.js';
import { firstLocation, firstQuoted } from './text.js';

/**
 * Recognized user intents and the steps that test them. Each intent knows how to spot itself in
 * a title/description and yields concrete steps with expectations, plus what it presumes.
 */
export interface Intent {
  id: string;
  /** Position in the text, so steps follow the order the author wrote. */
  at: number;
  steps: Step[];
  preconditions: string[];
  /** The final check a complete test of this intent makes. */
  verification: string;
}

interface IntentRule {
  id: string;
  pattern: RegExp;
  build(text: string, match: RegExpExecArray): Omit<Intent, 'id' | 'at'>;
}

const NEGATIVE = /\b(invalid|wrong|incorrect|bad|fail(?:s|ed|ure)?|error|locked|expired|empty|missing|without)\b/i;
const ITEM_STOP = /\s+(?:from|to|in|on|with|for|and|then|via|by|using)\b|[.,;:!?]|$/i;

/** The thing acted on: "delete a saved address from the list" → "saved address". */
function objectAfter(text: string, index: number): string {
  const rest = text.slice(index).replace(/^\s*(?:an?|the|new|existing|my|your|one)\s+/i, '');
  const stop = ITEM_STOP.exec(rest);
  const noun = rest.slice(0, stop ? stop.index : 40).trim().split(/\s+/).slice(0, 4).join(' ');
  return noun || 'item';
}

const RULES: IntentRule[] = [
  {
    id: 'sign_up',
    pattern: /\b(sign[ -]?up|register(?:s|ing)?|registration|create (?:an |a new )?account)\b/i,
    build: (text) => ({
      preconditions: ['The email address used is not yet registered.'],
      steps: [
        { step: 'Open the sign-up page', expected: 'The registration form is shown with name, email and password fields' },
        { step: 'Enter a name, a new unique email address and a valid password', expected: 'Every field accepts its value; the password is masked' },
        ...(NEGATIVE.test(text)
          ? [{ step: 'Submit the form with the invalid or missing value described', expected: 'The form is not submitted and a message names the field to fix' }]
          : [
              { step: 'Click "Sign up"', expected: 'The account is created and a welcome or confirmation message is shown' },
              { step: 'Log out and log in with the new credentials', expected: 'The new account can sign in' },
            ]),
      ],
      verification: 'The new account exists and can sign in',
    }),
  },
  {
    id: 'log_in',
    pattern: /\b(log ?in|logs in|sign[ -]?in|signs in|authenticat\w*)\b/i,
    build: (text) => {
      const negative = NEGATIVE.test(text);
      return {
        preconditions: ['A registered user account with a known password exists.'],
        steps: [
          { step: 'Open the login page', expected: 'The login form with username/email and password fields is shown' },
          negative
            ? { step: 'Enter a registered username and an incorrect password', expected: 'The password is masked while typing' }
            : { step: 'Enter the username/email and password of the registered user', expected: 'The password is masked while typing' },
          negative
            ? { step: 'Click "Log in"', expected: 'An error message says the credentials are invalid and the user stays on the login page' }
            : { step: 'Click "Log in"', expected: 'The user is signed in and taken to the start page' },
          negative
            ? { step: 'Check the session state', expected: 'No session is created; protected pages still redirect to the login page' }
            : { step: "Check the header for the user's name or account menu", expected: 'The signed-in user is shown' },
        ],
        verification: negative ? 'The user is not signed in' : 'The user is signed in with an active session',
      };
    },
  },
  {
    id: 'log_out',
    pattern: /\b(log ?out|logs out|sign[ -]?out|signs out)\b/i,
    build: () => ({
      preconditions: ['The user is signed in.'],
      steps: [
        { step: 'Open the account menu and click "Log out"', expected: 'The user is signed out and the login page or home page is shown' },
        { step: 'Open a page that requires login', expected: 'The app redirects to the login page' },
      ],
      verification: 'The session has ended',
    }),
  },
  {
    id: 'search',
    pattern: /\b(search(?:es|ing)?|look(?:s)? up|find(?:s)?)\b/i,
    build: (text) => {
      const term = firstQuoted(text);
      const what = term ? `"${term}"` : 'the name of an existing item';
      return {
        preconditions: ['At least one item that matches the search term exists.'],
        steps: [
          { step: 'Open the page with the search field', expected: 'The search field is visible and enabled' },
          { step: `Type ${what} into the search field and submit`, expected: 'A results list is shown' },
          { step: 'Check every result shown', expected: `Each result matches ${what}` },
          ...(/\bno (?:results|matches)|empty\b/i.test(text)
            ? [{ step: 'Search for a term that matches nothing, e.g. "zzqx-none"', expected: 'A "no results" message is shown instead of an empty page' }]
            : []),
        ],
        verification: `The results contain only items that match ${what}`,
      };
    },
  },
  {
    id: 'add_to_cart',
    pattern: /\b(add(?:s|ing)? (?:\w+ ){0,3}to (?:the |my )?(?:cart|basket|bag))\b/i,
    build: () => ({
      preconditions: ['A product that is in stock exists.'],
      steps: [
        { step: 'Open a product page', expected: 'The product name, price and "Add to cart" button are shown' },
        { step: 'Choose the required options (size, color) and a quantity of 1', expected: 'The choices are shown as selected' },
        { step: 'Click "Add to cart"', expected: 'The cart counter increases by 1' },
        { step: 'Open the cart', expected: 'The product is listed with the chosen options, quantity and correct price' },
      ],
      verification: 'The cart holds the product with the right quantity and price',
    }),
  },
  {
    id: 'checkout',
    pattern: /\b(check ?out|place (?:an |the )?order|purchase|pay(?:s|ment)?)\b/i,
    build: () => ({
      preconditions: ['The cart holds at least one product.', 'Test payment details are available.'],
      steps: [
        { step: 'Open the cart and click "Checkout"', expected: 'The checkout page shows the cart items and the order total' },
        { step: 'Enter a valid shipping address', expected: 'The address is accepted and shipping options are shown' },
        { step: 'Choose a payment method and enter the test payment details', expected: 'The payment details are accepted' },
        { step: 'Click "Place order"', expected: 'An order confirmation with an order number is shown' },
        { step: 'Compare the confirmed total with the cart total', expected: 'Both totals are equal and the cart is now empty' },
      ],
      verification: 'An order is created for the cart contents',
    }),
  },
  {
    id: 'delete_item',
    pattern: /\b(delet(?:e|es|ing)|remov(?:e|es|ing))\s+/i,
    build: (text, m) => {
      const item = objectAfter(text, m.index + m[0].length);
      return {
        preconditions: [`A ${item} that may be deleted exists.`],
        steps: [
          { step: `Open the ${item} list and select an existing ${item}`, expected: `The ${item} details are shown` },
          { step: 'Click "Delete"', expected: 'A confirmation dialog asks to confirm the deletion' },
          { step: 'Confirm the deletion', expected: `A success message is shown and the ${item} disappears from the list` },
          { step: `Reload the list and search for the deleted ${item}`, expected: `The ${item} is no longer found` },
        ],
        verification: `The ${item} is permanently removed`,
      };
    },
  },
  {
    id: 'edit_item',
    pattern: /\b(edit(?:s|ing)?|updat(?:e|es|ing)|modif(?:y|ies|ying)|chang(?:e|es|ing)|renam(?:e|es|ing))\s+/i,
    build: (text, m) => {
      const item = objectAfter(text, m.index + m[0].length);
      return {
        preconditions: [`A ${item} exists that the user may edit.`],
        steps: [
          { step: `Open an existing ${item} and click "Edit"`, expected: 'An edit form shows the current values' },
          { step: 'Change one or more fields to new valid values', expected: 'The fields show the new values' },
          { step: 'Click "Save"', expected: 'A success message is shown and the new values are displayed' },
          { step: `Reload the page and reopen the ${item}`, expected: 'The changes were kept' },
        ],
        verification: `The ${item} keeps the edited values`,
      };
    },
  },
  {
    id: 'create_item',
    pattern: /\b(creat(?:e|es|ing)|add(?:s|ing)?)\s+(?!to\b)/i,
    build: (text, m) => {
      const item = objectAfter(text, m.index + m[0].length);
      return {
        preconditions: ['The user may create new records.'],
        steps: [
          { step: `Open the ${item} list and click "New" or "Add"`, expected: `An empty ${item} form is shown` },
          { step: 'Fill in all required fields with valid values', expected: 'No validation errors are shown' },
          { step: 'Click "Save"', expected: `A success message is shown and the new ${item} appears in the list` },
          { step: `Open the new ${item}`, expected: 'Every field shows the value that was entered' },
        ],
        verification: `The new ${item} is stored with the entered values`,
      };
    },
  },
  {
    id: 'submit_form',
    pattern: /\b(form|submit(?:s|ting)?|fill(?:s)? (?:in|out))\b/i,
    build: (text) => ({
      preconditions: [],
      steps: [
        { step: 'Open the page with the form', expected: 'All form fields and the submit button are shown' },
        ...(NEGATIVE.test(text)
          ? [
              { step: 'Leave a required field empty or enter an invalid value, then submit', expected: 'The form is not sent and the field shows a validation message' },
              { step: 'Correct the value and submit again', expected: 'The form is accepted' },
            ]
          : [
              { step: 'Fill in every required field with valid values', expected: 'No validation errors are shown' },
              { step: 'Click the submit button', expected: 'A success message or confirmation page is shown' },
            ]),
      ],
      verification: 'The submitted data is stored or sent as described',
    }),
  },
  {
    id: 'navigate',
    pattern: /\b(navigat(?:e|es|ion)|go(?:es)? to|visit(?:s)?|open(?:s)? the \w+ page|browse(?:s)? to)\b|\bhttps?:\/\//i,
    build: (text) => {
      const named = /\b(?:open|visit|go to|navigate to|browse to)\s+(the [\w -]{1,40}? page)\b/i.exec(text);
      const where = firstLocation(text) ?? firstQuoted(text) ?? named?.[1] ?? null;
      return {
        preconditions: [],
        steps: [
          { step: where ? `Navigate to ${where}` : 'Navigate to the page named in the description', expected: 'The page loads without errors and shows its heading' },
          { step: 'Check the main navigation links on the page', expected: 'Each link leads to the page it names' },
        ],
        verification: 'The page and its navigation work',
      };
    },
  },
];

/**
 * Intents in title and description. Order follows the description (the author's sequence); intents
 * named only in the title come first. Overlapping weaker matches are dropped.
 */
export function detectIntents(title: string, description = ''): Intent[] {
  const found: Intent[] = [];
  const claimed: Array<[number, number]> = [];
  const desc = description.trim();
  const offset = title.length + 2;
  for (const rule of RULES) {
    // Matching in the description first gives the author's order and the richer context.
    let m = desc ? new RegExp(rule.pattern.source, rule.pattern.flags).exec(desc) : null;
    let at = m ? offset + m.index : -1;
    let source = desc;
    if (!m) {
      m = new RegExp(rule.pattern.source, rule.pattern.flags).exec(title);
      at = m ? m.index - offset : -1;
      source = title;
    }
    if (!m) continue;
    const span: [number, number] = [at, at + m[0].length];
    // "add to cart" must not also count as "create"; "sign up" not as "log in".
    if (claimed.some(([a, b]) => span[0] < b && a < span[1])) continue;
    if (rule.id === 'create_item' && found.some((f) => f.id === 'add_to_cart' || f.id === 'sign_up')) continue;
    // The sign-up steps already end with a login.
    if (rule.id === 'log_in' && found.some((f) => f.id === 'sign_up')) continue;
    claimed.push(span);
    const context = source === desc ? `${title}. ${desc}` : title + (desc ? `. ${desc}` : '');
    found.push({ id: rule.id, at, ...rule.build(context, new RegExp(rule.pattern.source, rule.pattern.flags).exec(context)!) });
  }
  found.sort((a, b) => a.at - b.at);
  // Something must be in the cart before checking out, whatever the wording order.
  const cart = found.findIndex((f) => f.id === 'add_to_cart');
  const checkout = found.findIndex((f) => f.id === 'checkout');
  if (cart >= 0 && checkout >= 0) {
    if (cart > checkout) found.splice(checkout, 0, found.splice(cart, 1)[0]!);
    const c = found.find((f) => f.id === 'checkout')!;
    c.preconditions = c.preconditions.filter((p) => !/cart holds/.test(p));
  }
  return found;
}
