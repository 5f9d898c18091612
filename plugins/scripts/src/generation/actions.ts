/** What a test step means, independent of the language it is rendered in. */
export type Target =
  | { by: 'role'; role: string; name: string }
  | { by: 'label'; label: string }
  | { by: 'text'; text: string };

export type Action =
  | { kind: 'goto'; url: string }
  | { kind: 'click'; target: Target }
  | { kind: 'fill'; target: Target; value: string }
  | { kind: 'select'; target: Target; value: string }
  | { kind: 'check'; target: Target; checked: boolean }
  | { kind: 'press'; key: string }
  | { kind: 'wait_ms'; ms: number }
  | { kind: 'wait_load' }
  | { kind: 'expect_visible'; target: Target; visible: boolean }
  | { kind: 'expect_value'; target: Target; value: string }
  | { kind: 'expect_url'; match: 'contains' | 'equals'; value: string }
  | { kind: 'expect_title'; match: 'contains' | 'equals'; value: string };

/** One line of the generated test: the actions of a step (or its expectation), or a gap. */
export interface StepPlan {
  /** e.g. `Step 2` or `Step 2 (expected)`. */
  label: string;
  text: string;
  actions: Action[] | null;
}
