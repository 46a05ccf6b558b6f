// A household expert that searches instead of peeking. @skillrl/task-household's `planActions` reads the true
// state (where every object is, like ALFWorld's handcoded expert), so cloning it teaches a policy to walk
// straight to things it has never seen. This one knows only what an agent knows: the goal (the task's object,
// receptacle and lamp kinds, as the agent's own goal bindings read them), what the observations have shown
// and the admissible actions. It visits receptacles in the order the room lists them, opens closed ones, takes
// a goal object once one is in reach, cleans / heats / cools it at the appliance its verb names, and places it
// (or lights the lamp). Public environment API only: reset, step, admissibleActions.

const APPLIANCE = {
  pick_clean_then_place_in_recep: { kind: 'sinkbasin', verb: 'clean' },
  pick_heat_then_place_in_recep: { kind: 'microwave', verb: 'heat' },
  pick_cool_then_place_in_recep: { kind: 'fridge', verb: 'cool' },
};

/** "apple 2" → "apple". */
const kindOf = (name) => name.replace(/\s+\d+$/, '');

/** What "…you see a mug 1, a pan 2, and a knife 1." lists; [] for "you see nothing". */
function seenObjects(observation) {
  const m = /you see (.*?)\.(?:\s|$)/i.exec(observation);
  if (!m?.[1] || /^nothing$/i.test(m[1].trim())) return [];
  return m[1]
    .split(/,\s*(?:and\s+)?|\s+and\s+/)
    .map((s) => s.replace(/^(?:a|an|the|some)\s+/i, '').trim())
    .filter((s) => /\s\d+$/.test(s));
}

/**
 * A fresh expert for one episode of `task`: `next(observation, admissibleActions)` returns the action to take.
 * The first call must get the observation `reset()` returned.
 */
export function createSearchExpert(task) {
  const family = task.family;
  const meta = task.metadata ?? {};
  const objectKind = String(meta.objectKind ?? '');
  const targetKind = meta.receptacleKind ? String(meta.receptacleKind) : undefined;
  const lampKind = meta.lampKind ? String(meta.lampKind) : undefined;
  const appliance = APPLIANCE[family];
  const needed = family === 'pick_two_obj_and_place' ? 2 : 1;

  let order; // receptacle names in the order the room was first listed
  let at; // the receptacle the agent stands at
  let holding;
  let transformed = false;
  let placed = 0;
  const visited = new Set();
  const opened = new Set();
  const contents = new Map(); // receptacle → objects last seen in or on it
  let target; // the one target receptacle chosen (pick-two fills a single one)

  const goTo = (r) => `go to ${r}`;
  const objectsHere = () => contents.get(at) ?? [];

  /** Where a goal object was seen (and is still believed to be), other than the target. */
  const knownGoalObject = (kind) => {
    for (const r of order) {
      if (r === target && needed === 2) continue;
      if ((contents.get(r) ?? []).some((o) => kindOf(o) === kind)) return r;
    }
    return undefined;
  };
  const nextUnvisited = () =>
    order.find((r) => r !== at && !visited.has(r) && !(needed === 2 && r === target));

  /** Toward `r`: go there, then open it if it is closed. */
  const approach = (r, admissible) => {
    if (at !== r) return goTo(r);
    if (admissible.includes(`open ${r}`) && !opened.has(r)) return `open ${r}`;
    return undefined;
  };

  /** Find and take an object of `kind`: from here if one is in reach, else where one was seen, else search. */
  const fetch = (kind, admissible) => {
    const take = admissible.find((a) => {
      const m = /^take (.+) from (.+)$/.exec(a);
      return m && kindOf(m[1]) === kind && !(needed === 2 && m[2] === target);
    });
    if (take) return take;
    if (at && admissible.includes(`open ${at}`) && !opened.has(at)) return `open ${at}`;
    const known = knownGoalObject(kind);
    if (known && known !== at) return goTo(known);
    const next = nextUnvisited();
    if (next) return goTo(next);
    // Everything seen once: look again, from the first receptacle on.
    visited.clear();
    return goTo(order.find((r) => r !== at) ?? order[0]);
  };

  const observe = (observation, action) => {
    const go = /^go to (.+)$/.exec(action ?? '');
    if (go) {
      at = go[1];
      visited.add(at);
    }
    const open = /^open (.+)$/.exec(action ?? '');
    if (open) opened.add(open[1]);
    if (at && /you see/i.test(observation) && (go || open)) contents.set(at, seenObjects(observation));
    const take = /^take (.+) from (.+)$/.exec(action ?? '');
    if (take && /you pick up/i.test(observation)) {
      holding = take[1];
      contents.set(
        take[2],
        (contents.get(take[2]) ?? []).filter((o) => o !== take[1]),
      );
    }
    if (appliance && action?.startsWith(`${appliance.verb} `) && /^you /i.test(observation))
      transformed = true;
    if (/^(?:put|move) /.test(action ?? '') && /^you (?:put|move)/i.test(observation)) {
      contents.set(at, [...objectsHere(), holding]);
      holding = undefined;
      transformed = false;
      placed += 1;
    }
  };

  let last;
  return {
    next(observation, admissible) {
      if (!order) {
        order = admissible.filter((a) => a.startsWith('go to ')).map((a) => a.slice(6));
        target = targetKind ? order.find((r) => kindOf(r) === targetKind) : undefined;
      } else {
        observe(observation, last);
      }
      last = decide(admissible);
      return last;
    },
  };

  function decide(admissible) {
    if (family === 'look_at_obj_in_light') {
      if (!holding) return fetch(objectKind, admissible);
      const use = admissible.find((a) => a.startsWith('use ') && kindOf(a.slice(4)) === lampKind);
      if (use) return use;
      const lampAt = order.find((r) => (contents.get(r) ?? []).some((o) => kindOf(o) === lampKind));
      if (lampAt && lampAt !== at) return goTo(lampAt);
      if (at && admissible.includes(`open ${at}`) && !opened.has(at)) return `open ${at}`;
      return goTo(nextUnvisited() ?? order.find((r) => r !== at) ?? order[0]);
    }
    if (placed >= needed) return 'look';
    if (!holding) return fetch(objectKind, admissible);
    if (appliance && !transformed) {
      const app = order.find((r) => kindOf(r) === appliance.kind);
      const act = admissible.find((a) => a.startsWith(`${appliance.verb} ${holding} with `));
      if (act) return act;
      if (app && at !== app) return goTo(app);
    }
    if (!target) return 'look';
    const way = approach(target, admissible);
    if (way) return way;
    const place = admissible.find(
      (a) => a === `put ${holding} in/on ${target}` || a === `move ${holding} to ${target}`,
    );
    return place ?? 'look';
  }
}

/** Plays one episode of `task` with the search expert; returns its actions and whether it won. */
export async function playSearchExpert(adapter, task) {
  const env = await adapter.createEnvironment(task);
  const expert = createSearchExpert(task);
  let observation = await env.reset();
  const actions = [];
  let won = false;
  for (let i = 0; i < env.maxSteps; i++) {
    const action = expert.next(observation, env.admissibleActions());
    actions.push(action);
    const result = await env.step(action);
    observation = result.observation;
    if (result.done) {
      won = result.reward > 0;
      break;
    }
  }
  await env.close?.();
  return { actions, won };
}
