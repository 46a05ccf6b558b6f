import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

export const STREAM_NAME = /^[a-z0-9][a-z0-9_-]*$/;

export function checkStreamName(stream: string): void {
  if (typeof stream !== 'string' || !STREAM_NAME.test(stream)) {
    throw new InvalidArgumentError(
      'stream name',
      `"${String(stream)}"; use lowercase letters, digits, "-" and "_" (e.g. "events", "rollouts")`,
    );
  }
}
