import { isContentWord, tokenize } from '../text/tokenize.js';

/** What the goal's generic phrases stand for in this task ("the object" → "apple"). */
export interface GoalBindings {
  object?: string;
  receptacle?: string;
}

/** One actionable piece of a skill step, already bound to the task's goal words. */
export interface SkillClause {
  /** Index of the numbered step or bullet it came from (counted over the whole body). */
  step: number;
  /**
   * Index of the section it came from: a heading (`### TASK: heat ###`, `## Steps`) starts a new one. Each
   * section is its own procedure with its own progress (SKILL0's prompts put a GENERAL SKILLS section of
   * principles before the task's own numbered steps; those are two lists, not one eleven-step procedure).
   */
  section: number;
  /** Content words after binding (deduplicated). */
  words: string[];
  /** "do not …", "never …": matching this clause counts against an action. */
  negated: boolean;
}

const STEP_LINE = /^\s*(?:\d+[.)]|[-*+])\s+(.*)$/;
const HEADING_LINE = /^\s*#{1,6}\s/;
const CLAUSE_BREAK = /[,;:.!?()"`]|\b(?:and|then|or)\b/;
const PLACE_PREPOSITIONS = new Set(['in', 'on', 'into', 'onto', 'to']);
const NEGATION = /\b(?:do not|don't|never|not|avoid|skip)\b/;

/**
 * The steps of a SKILL.md body: its numbered lines and bullets (or its sentences when it has neither).
 * Headings and blank lines are not steps.
 */
export function skillSteps(body: string): string[] {
  return sectionedSteps(body).map((s) => s.text);
}

/** The steps with the section each lies in (sections are counted from 0, a new one at each heading). */
export function sectionedSteps(body: string): { text: string; section: number }[] {
  const lines = body.split(/\r?\n/);
  const steps: { text: string; section: number }[] = [];
  let section = 0;
  let stepsInSection = 0;
  for (const line of lines) {
    if (HEADING_LINE.test(line)) {
      if (stepsInSection > 0) section += 1;
      stepsInSection = 0;
      continue;
    }
    const m = STEP_LINE.exec(line);
    if (m?.[1]) {
      steps.push({ text: m[1].trim(), section });
      stepsInSection += 1;
    }
  }
  if (steps.length > 0) return steps;
  return body
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !s.startsWith('#'))
    .map((text) => ({ text, section: 0 }));
}

/**
 * Cuts each step into clauses (at punctuation, quotes and "and/then/or") and binds generic phrases to the
 * goal: "object" → the goal's object word, "target receptacle" and "<receptacle>" → its receptacle word, and
 * "it" → the last entity bound earlier in the same step ("take the object and heat it"), or the receptacle
 * after a preposition ("put the object in it").
 */
export function skillClauses(body: string, bindings: GoalBindings = {}): SkillClause[] {
  const out: SkillClause[] = [];
  sectionedSteps(body).forEach(({ text: step, section }, stepIndex) => {
    let lastEntity: string | undefined;
    let lastReceptacle: string | undefined;
    for (const piece of step.split(CLAUSE_BREAK)) {
      if (piece === undefined) continue;
      const text = piece
        .replace(/<\s*object\s*>/gi, ' object ')
        .replace(/<\s*receptacle\s*>/gi, ' target receptacle ');
      const tokens = tokenize(text);
      const words: string[] = [];
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i] as string;
        if (t === 'target' && tokens[i + 1] === 'receptacle' && bindings.receptacle) {
          words.push(bindings.receptacle);
          lastEntity = bindings.receptacle;
          lastReceptacle = bindings.receptacle;
          i += 1;
        } else if (t === 'object' && bindings.object) {
          words.push(bindings.object);
          lastEntity = bindings.object;
        } else if (t === 'it' || t === 'them') {
          // "put the object in it": after a preposition, "it" is the place, not the thing.
          const place = PLACE_PREPOSITIONS.has(tokens[i - 1] ?? '') ? lastReceptacle : undefined;
          const entity = place ?? lastEntity;
          if (entity) words.push(entity);
        } else if (isContentWord(t)) {
          words.push(t);
        }
      }
      const unique = [...new Set(words)];
      if (unique.length > 0)
        out.push({ step: stepIndex, section, words: unique, negated: NEGATION.test(piece.toLowerCase()) });
    }
  });
  return out;
}
