import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readRunTemplate } from 'create-skillrl';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_STEPS, DEMO_TEMPLATES, demoConfigs } from '../src/demo/run-demo.js';

// What `skillrl demo` ran when its configs were TypeScript literals, written out before they became the
// shipped templates (demo-skillc, demo-grpo-control, demo-skill-r1): the demo must run exactly these.
const BEFORE = resolve(__dirname, 'fixtures/demo-configs.json');

describe("the demo's configs are the shipped templates", () => {
  it('give the same configs as before, to the key order, for both sizes and two seeds', () => {
    const now: Record<string, unknown> = {};
    for (const quick of [false, true]) {
      for (const seed of [1, 2])
        now[`${quick ? 'quick' : 'full'}-seed${seed}`] = demoConfigs({ quick, seed });
    }
    // The text, not only the values: the demo resumes a run whose written config is the same text.
    expect(`${JSON.stringify(now, null, 2)}\n`).toBe(readFileSync(BEFORE, 'utf8'));
  });

  it('the full size is each template as shipped; DEMO_STEPS is their step count', () => {
    const configs = demoConfigs();
    for (const [key, name] of Object.entries(DEMO_TEMPLATES)) {
      expect(configs[key as keyof typeof configs], name).toEqual(parse(readRunTemplate(name)));
    }
    expect(configs.internalize.internalize?.steps).toBe(DEMO_STEPS);
    expect(configs.control.internalize?.steps).toBe(DEMO_STEPS);
  });
});
