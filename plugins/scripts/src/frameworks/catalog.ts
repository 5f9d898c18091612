/** The frameworks a project's scripts can belong to (SPEC: add_script_to_framework). */
export const FRAMEWORKS = ['browser', 'pytest', 'rust_cargo', 'go_test'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export const DEFAULT_FRAMEWORK: Framework = 'browser';

export function isFramework(value: string): value is Framework {
  return (FRAMEWORKS as readonly string[]).includes(value);
}

/** How each framework is run once exported (also written into its README). */
export const RUN_COMMAND: Record<Framework, string> = {
  browser: 'npm install && npx playwright install chromium && npx playwright test',
  pytest: 'python3 -m pip install -r requirements.txt && python3 -m pytest',
  rust_cargo: 'cargo test',
  go_test: 'go test ./...',
};
