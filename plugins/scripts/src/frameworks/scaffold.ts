import { RUN_COMMAND, type Framework } from './catalog.js';

/**
 * The files that make an empty framework directory a runnable project of its framework. Test files
 * are added to `tests/` by add_script_to_framework. Every framework reads the app's URL from BASE_URL.
 */
export function scaffoldFiles(framework: Framework, projectId: number): Record<string, string> {
  const files = FILES[framework](projectId);
  files['README.md'] = readme(framework);
  return files;
}

const FILES: Record<Framework, (projectId: number) => Record<string, string>> = {
  browser: (projectId) => ({
    'package.json':
      JSON.stringify(
        {
          name: `testkeeper-e2e-project-${projectId}`,
          private: true,
          type: 'module',
          scripts: { test: 'playwright test' },
          devDependencies: { '@playwright/test': '^1.49.0' },
        },
        null,
        2,
      ) + '\n',
    'playwright.config.ts': [
      "import { defineConfig, devices } from '@playwright/test';",
      '',
      'export default defineConfig({',
      "  testDir: './tests',",
      '  timeout: 30_000,',
      '  use: {',
      '    // The deployment under test; run with BASE_URL=https://... npx playwright test',
      '    baseURL: process.env.BASE_URL,',
      "    trace: 'retain-on-failure',",
      '  },',
      "  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],",
      '});',
      '',
    ].join('\n'),
    '.gitignore': 'node_modules/\ntest-results/\nplaywright-report/\n',
    'tests/.gitkeep': '',
  }),
  pytest: () => ({
    'pytest.ini': '[pytest]\ntestpaths = tests\naddopts = -ra\n',
    'conftest.py': [
      'import os',
      '',
      'import pytest',
      '',
      '',
      '@pytest.fixture(scope="session")',
      'def base_url():',
      '    """The deployment under test, from BASE_URL."""',
      '    return os.environ.get("BASE_URL", "http://localhost:3000")',
      '',
    ].join('\n'),
    'requirements.txt': 'pytest>=8\npytest-playwright>=0.5\n',
    '.gitignore': '__pycache__/\n.pytest_cache/\n',
    'tests/__init__.py': '',
  }),
  rust_cargo: (projectId) => ({
    'Cargo.toml': ['[package]', `name = "testkeeper_e2e_p${projectId}"`, 'version = "0.1.0"', 'edition = "2021"', '', '[dependencies]', ''].join('\n'),
    'src/lib.rs': '//! Integration tests live in tests/; each file there is one test crate.\n',
    '.gitignore': 'target/\n',
  }),
  go_test: (projectId) => ({
    'go.mod': `module testkeeper.local/e2e/p${projectId}\n\ngo 1.21\n`,
    'doc.go': '// Package e2e holds the tests of this project; each script is a package under tests/.\npackage e2e\n',
  }),
};

function readme(framework: Framework): string {
  return [
    `# Tests (${framework})`,
    '',
    'Exported by Testkeeper. Set BASE_URL to the deployment under test, then run:',
    '',
    '```sh',
    'export BASE_URL=https://staging.example.com',
    ...RUN_COMMAND[framework].split(' && '),
    '```',
    '',
    'Test files are in `tests/`, one per script.',
    '',
  ].join('\n');
}
