import { SkillrlError } from '@skillrl/core';

const SYMBOL = Symbol.for('skillrl.error.serve-host-needs-token');

/**
 * `skillrl serve` was asked to listen on an address other machines can reach without a token: anyone on the
 * network could then read every run under the folder. The message names the fix (`--token`, or loopback).
 */
export class HostNeedsTokenError extends SkillrlError {
  readonly host: string;

  constructor(host: string) {
    super(
      'SKILLRL_SERVE_TOKEN_REQUIRED',
      `skillrl serve: --host ${host} is reachable from other machines, so it needs a token: add --token <secret> ` +
        '(at least 16 characters, e.g. the output of `node -e "console.log(crypto.randomUUID())"`), ' +
        'or leave --host out to listen on 127.0.0.1 only.',
    );
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'HostNeedsTokenError';
    this.host = host;
  }

  static override isInstance(error: unknown): error is HostNeedsTokenError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}
