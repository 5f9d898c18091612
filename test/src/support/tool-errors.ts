import { expect } from 'chai';
import type { TestClient } from '@testkeeper/kernel/testing';

/** Calls a tool that must fail with `code`; returns the error object. */
export async function expectToolError(client: TestClient, tool: string, args: Record<string, unknown>, code: string) {
  const env = await client.call(tool, args);
  expect(env.success, `${tool} should fail with ${code}, got ${JSON.stringify(env)}`).to.equal(false);
  expect(env.isError).to.equal(true);
  expect(env.error?.code, JSON.stringify(env.error)).to.equal(code);
  return env.error!;
}
