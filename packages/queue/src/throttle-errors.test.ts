import { describe, expect, it } from 'vitest';
import { throttleErrors } from './throttle-errors.js';

describe('throttleErrors', () => {
  it('says each text once per window, then how many were held back; other texts pass at once', () => {
    let now = 0;
    const said: string[] = [];
    const report = throttleErrors(
      (m) => said.push(m),
      30_000,
      () => now,
    );
    // Three connections, reconnecting every second for a minute: 180 errors of one text.
    for (let s = 0; s < 60; s++) {
      now = s * 1000;
      for (let c = 0; c < 3; c++) report('connect ECONNREFUSED 127.0.0.1:6380');
    }
    report('could not renew lock for job ep-1');
    expect(said).toEqual([
      'connect ECONNREFUSED 127.0.0.1:6380',
      'connect ECONNREFUSED 127.0.0.1:6380 (and 89 time(s) more in the last 30 s)',
      'could not renew lock for job ep-1',
    ]);
  });
});
