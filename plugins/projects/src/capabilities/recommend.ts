import type { TestCaseView } from '@testkeeper/kernel';
import type { FrameworkCapability } from './sources.js';

export interface Recommendation {
  framework: string | null;
  run_tool: string | null;
  reason: string;
  alternatives: string[];
}

/** Words in a test case that point to a framework, strongest first. */
const HINTS: Array<{ framework: string; pattern: RegExp; why: string }> = [
  { framework: 'rust_cargo', pattern: /\b(rust|cargo|crate)\b/i, why: 'the test case mentions Rust/cargo' },
  { framework: 'go_test', pattern: /\b(golang|go test|go module)\b/i, why: 'the test case mentions Go' },
  { framework: 'pytest', pattern: /\b(api|endpoint|rest|graphql|http status|json|python|pytest)\b/i, why: 'it is an API-level check, which pytest does without a browser' },
  { framework: 'browser', pattern: /\b(click|page|button|form|screen|ui|navigate|login|browser|visible)\b/i, why: 'it describes user-interface steps' },
];

/**
 * The best-fit framework for a project or one of its test cases among those this server can run
 * now. Preference follows what the test case describes; a web project defaults to the browser.
 */
export function recommend(
  project: { project_type: string },
  testCase: TestCaseView | null,
  frameworks: FrameworkCapability[],
): Recommendation {
  const available = frameworks.filter((f) => f.available);
  const pick = (framework: string, reason: string): Recommendation => ({
    framework,
    run_tool: frameworks.find((f) => f.framework === framework)?.run_tool ?? null,
    reason,
    alternatives: available.map((f) => f.framework).filter((f) => f !== framework),
  });
  const text = testCase ? [testCase.title, testCase.description, testCase.detailed_instructions, testCase.category, ...testCase.tags, ...testCase.steps.map((s) => s.step)].join(' ') : '';
  const wanted: Array<{ framework: string; why: string }> = [];
  for (const h of HINTS) if (text && h.pattern.test(text)) wanted.push({ framework: h.framework, why: h.why });
  if (project.project_type === 'web') wanted.push({ framework: 'browser', why: 'this is a web project' });
  wanted.push({ framework: 'pytest', why: 'pytest runs HTTP-level checks without a browser' });

  const unavailable: string[] = [];
  for (const w of wanted) {
    if (available.some((f) => f.framework === w.framework)) {
      const note = unavailable.length ? ` (${unavailable.join('; ')})` : '';
      return pick(w.framework, `${w.why}${note}`);
    }
    const f = frameworks.find((x) => x.framework === w.framework);
    const msg = `${w.framework} would fit because ${w.why}, but it is not available: ${f?.reason ?? 'no runner installed'}`;
    if (!unavailable.includes(msg)) unavailable.push(msg);
  }
  if (available[0]) return pick(available[0].framework, `the only runnable framework here${unavailable.length ? ` (${unavailable.join('; ')})` : ''}`);
  return { framework: null, run_tool: null, reason: `no framework can run on this server: ${unavailable.join('; ') || 'no runners installed'}`, alternatives: [] };
}
