import type { Task } from '@skillrl/core';
import { tokenize } from '../text/tokenize.js';
import type { GoalBindings } from './skill-clauses.js';

const PLACE_GOAL =
  /\b(?:put|place|move|find)\s+(?:a|an|some|two|the)?\s*(?:clean|hot|cool|cold|heated|cooled)?\s*([a-z]+)\s+(?:[a-z]+\s+)?(?:in|on|into|onto)\s+(?:the\s+)?([a-z]+)/;
const OBJECT_GOAL = /\b(?:look at|examine|heat|cool|clean|take|find)\s+(?:a|an|some|two|the)?\s*([a-z]+)/;

function metaWord(task: Task, key: string): string | undefined {
  const value = task.metadata?.[key];
  if (typeof value !== 'string' || value.length === 0) return undefined;
  return tokenize(value).join('');
}

/**
 * The goal's object and target receptacle: from the task's metadata (`objectKind`, `receptacleKind`, as
 * household writes them) or, failing that, read off the prompt ("put a clean apple in fridge").
 */
export function goalBindings(task: Task): GoalBindings {
  const out: GoalBindings = {};
  const object = metaWord(task, 'objectKind');
  const receptacle = metaWord(task, 'receptacleKind');
  if (object) out.object = object;
  if (receptacle) out.receptacle = receptacle;
  if (out.object && out.receptacle) return out;
  const prompt = task.prompt.toLowerCase();
  const place = PLACE_GOAL.exec(prompt);
  if (place) {
    if (!out.object && place[1]) out.object = tokenize(place[1])[0] ?? place[1];
    if (!out.receptacle && place[2]) out.receptacle = tokenize(place[2])[0] ?? place[2];
  }
  if (!out.object) {
    const m = OBJECT_GOAL.exec(prompt);
    if (m?.[1]) out.object = tokenize(m[1])[0] ?? m[1];
  }
  return out;
}
