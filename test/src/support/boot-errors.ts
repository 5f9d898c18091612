import { expect } from 'chai';
import { BootError } from '@testkeeper/kernel';

/** Runs `fn`, which must throw a BootError; returns it. */
export function bootError(fn: () => unknown): BootError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(BootError);
    return err as BootError;
  }
  throw new Error('expected a BootError');
}
