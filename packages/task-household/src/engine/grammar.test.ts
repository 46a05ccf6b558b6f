import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALFRED_TWL2, alfredGrammar } from './alfred-twl2.js';
import { parseGrammar, type RenderContext } from './grammar.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/alfworld/${name}`, import.meta.url), 'utf8');

const ctx = (vars: Record<string, string>, items: string[] = [], truth: string[] = []): RenderContext => ({
  vars,
  list: () => items,
  holds: (p) => truth.includes(p),
});

describe('the ALFWorld grammar', () => {
  it('embeds alfred.twl2 byte for byte', () => {
    expect(ALFRED_TWL2).toBe(fixture('alfred.twl2'));
  });

  it('reads every action template of alfred.twl2', () => {
    const g = alfredGrammar();
    expect(g.templates.PutObject?.source).toBe('move {o} to {r}');
    expect(g.templates.GotoLocation?.source).toBe('go to {r}');
    expect(g.command('PickupObject', { o: 'apple 1', r: 'countertop 2' })).toBe(
      'take apple 1 from countertop 2',
    );
    expect(g.command('HeatObject', { o: 'egg 1', r: 'microwave 1' })).toBe('heat egg 1 with microwave 1');
    expect(g.agentPrefixed).toBe(false);
  });

  it("reads the fixture game's older grammar: `put X in/on Y` and agent-addressed commands", () => {
    const game = JSON.parse(fixture('game.tw-pddl')) as { grammar: string };
    const g = parseGrammar(game.grammar);
    expect(g.templates.PutObject?.source).toBe('put {o} in/on {r}');
    expect(g.agentPrefixed).toBe(true);
    expect(g.rhs('task')).toBe('Your task is to: put a hot potato in sinkbasin.');
    expect(g.render('PutObject.feedback', ctx({ o: 'potato 1', r: 'sinkbasin 1' }))).toBe(
      'You put the potato 1 in/on the sinkbasin 1.',
    );
  });

  it('renders lists the TextWorld way: "a x", ", " between, ", and " before the last, "nothing" when empty', () => {
    const g = alfredGrammar();
    const surface = (items: string[]): string =>
      g.render('examineReceptacle.feedback', ctx({ r: 'countertop 1' }, items));
    expect(surface([])).toBe('On the countertop 1, you see nothing.');
    expect(surface(['apple 1'])).toBe('On the countertop 1, you see a apple 1.');
    expect(surface(['apple 1', 'egg 2'])).toBe('On the countertop 1, you see a apple 1, and a egg 2.');
    expect(surface(['apple 1', 'egg 2', 'mug 3'])).toBe(
      'On the countertop 1, you see a apple 1, a egg 2, and a mug 3.',
    );
  });

  it('picks the first rule whose condition holds', () => {
    const g = alfredGrammar();
    const open = ctx({ r: 'fridge 1' }, ['lettuce 1'], ['openable', 'opened']);
    expect(g.render('examineReceptacle.feedback', open)).toBe(
      'The fridge 1 is open. In it, you see a lettuce 1.',
    );
    expect(g.render('examineReceptacle.feedback', ctx({ r: 'fridge 1' }, [], ['openable']))).toBe(
      'The fridge 1 is closed.',
    );
    expect(g.render('examineObject.feedback', ctx({ o: 'apple 1' }, [], ['ishot', 'isclean']))).toBe(
      'This is a hot and clean apple 1.',
    );
    expect(g.render('examineObject.feedback', ctx({ o: 'apple 1' }, [], ['iscool']))).toBe(
      'This is a cold apple 1.',
    );
    expect(g.render('examineObject.feedback', ctx({ o: 'apple 1' }))).toBe(
      "There's nothing special about apple 1.",
    );
  });

  it('names the block that is not JSON', () => {
    expect(() => parseGrammar('grammar :: """{ not json }""";')).toThrow(/block 1 is not valid JSON/);
    expect(() => parseGrammar('hello')).toThrow(/twl2 grammar/);
  });
});
