import { execFile } from 'node:child_process';
import type { GenerationFramework } from './deterministic.js';

export interface CodeCheck {
  ok: boolean;
  /** `typescript x.y.z` / `python3` — what checked it. */
  checker: string;
  errors: string[];
}

/** Syntax check of a Playwright test with the TypeScript compiler (loaded only when needed). */
async function checkTypeScript(code: string): Promise<CodeCheck> {
  const ts = (await import('typescript')).default;
  const out = ts.transpileModule(code, {
    reportDiagnostics: true,
    fileName: 'generated.spec.ts',
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const errors = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { ok: errors.length === 0, checker: `typescript ${ts.version}`, errors };
}

/** Byte-compiles Python source, as py_compile does, without writing files. */
function checkPython(code: string): Promise<CodeCheck> {
  return new Promise((resolve) => {
    const child = execFile(
      'python3',
      ['-c', 'import sys; compile(sys.stdin.read(), "generated_test.py", "exec")'],
      { timeout: 15_000, maxBuffer: 256 * 1024 },
      (err, _stdout, stderr) => {
        if (!err) return resolve({ ok: true, checker: 'python3', errors: [] });
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ ok: true, checker: 'none (python3 not found)', errors: [] });
        const lines = stderr.trim().split('\n');
        resolve({ ok: false, checker: 'python3', errors: [lines.slice(-3).join('\n')] });
      },
    );
    child.stdin?.end(code);
  });
}

export function checkCode(framework: GenerationFramework, code: string): Promise<CodeCheck> {
  return framework === 'pytest' ? checkPython(code) : checkTypeScript(code);
}
