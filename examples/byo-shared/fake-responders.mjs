// Deterministic fake models for the bring-your-own-agent examples: `respond(request, ctx)` functions for the
// testkit's fake OpenAI server (`startFakeOpenAI({ respond })` in @skillrl/testkit). Plain JavaScript with no
// dependencies, so any example (or a test in any package) can import it.
//
// The fakes read only what a real model would: the chat request's messages (the system prompt, the task's
// observation, the tool results so far) and the tools offered. They never see the environment, the answer key
// or the program's code, so a program that drops a tool result, mangles a tool's arguments or never offers
// the MCP tools makes them fail, which is what the examples' tests want to notice.
//
//   householdResponder(): plays household (ALFWorld-like) through the MCP tools `admissible_actions` and `act`:
//     it asks for the admissible actions, then acts, turn by turn: find the object (opening closed
//     receptacles), take it, clean/heat/cool it at the sinkbasin/microwave/fridge, bring it to the target (or
//     turn on the desklamp while holding it). With `{ skillAware: true }` it behaves like a model that only
//     knows what its system prompt tells it: it opens receptacles only when the prompt says to open them, and
//     searches the receptacle kinds the prompt names first (in the order it names them), so its success
//     depends on the skill text.
//   qaResponder(): answers the examples' GAIA-format questions (byo-shared/data) with the task's tools:
//     `read_file` for an attachment (sums the last column of a table), else `web_search` with the question,
//     `fetch_page` on the first hit and the year after "founded"; then `submit({ answer })` when that tool is
//     offered, else a final message ending "FINAL ANSWER: <answer>".
//
// The MCP tools are offered to the model under their MCP names; some frameworks prefix them (e.g.
// `mcp__server__act`), so tools are matched by name suffix.

/** The text of a message's content, whatever shape the framework gave it (string, parts, JSON of an MCP result). */
export function contentText(content) {
  if (content == null) return '';
  if (Array.isArray(content)) return content.map((part) => contentText(part)).join('\n');
  if (typeof content === 'object') {
    if (typeof content.text === 'string') return content.text;
    const texts = [];
    collectTexts(content, texts);
    return texts.join('\n');
  }
  const text = String(content);
  const trimmed = text.trim();
  // Frameworks that pass an MCP CallToolResult on as JSON ({"content":[{"type":"text","text":…}]}).
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && trimmed.includes('"text"')) {
    try {
      const texts = [];
      collectTexts(JSON.parse(trimmed), texts);
      if (texts.length > 0) return texts.join('\n');
    } catch {
      // not JSON after all: the text itself
    }
  }
  return text;
}

function collectTexts(value, out) {
  if (Array.isArray(value)) for (const v of value) collectTexts(v, out);
  else if (value && typeof value === 'object') {
    if (typeof value.text === 'string') out.push(value.text);
    else if (typeof value.value === 'string' && value.type === 'text') out.push(value.value);
    else for (const v of Object.values(value)) collectTexts(v, out);
  }
}

/** The offered tool whose name is `name` or ends with it after a separator (`mcp__env__act`, `env_act`). */
export function offeredTool(request, name) {
  const names = (request.tools ?? []).map((t) => t?.function?.name).filter((n) => typeof n === 'string');
  return (
    names.find((n) => n === name) ??
    names.find(
      (n) =>
        n.endsWith(`__${name}`) || n.endsWith(`_${name}`) || n.endsWith(`.${name}`) || n.endsWith(`-${name}`),
    )
  );
}

function baseName(name, known) {
  if (known.includes(name)) return name;
  return (
    known.find(
      (k) =>
        name.endsWith(`__${k}`) || name.endsWith(`_${k}`) || name.endsWith(`.${k}`) || name.endsWith(`-${k}`),
    ) ?? name
  );
}

/**
 * The tool calls of the conversation so far, in order, each with its (base) name, parsed arguments and the
 * text of its result (undefined while unanswered).
 */
export function toolHistory(request, known) {
  const calls = [];
  const byId = new Map();
  for (const m of request.messages ?? []) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) {
        let args = {};
        try {
          args = JSON.parse(c?.function?.arguments || '{}') ?? {};
        } catch {
          args = {};
        }
        const call = {
          id: c?.id,
          name: baseName(String(c?.function?.name ?? ''), known),
          args,
          result: undefined,
        };
        calls.push(call);
        if (call.id) byId.set(call.id, call);
      }
    } else if (m.role === 'tool') {
      const call = byId.get(m.tool_call_id) ?? calls.find((c) => c.result === undefined);
      if (call) call.result = contentText(m.content);
    }
  }
  return calls;
}

function messagesText(request, roles) {
  return (request.messages ?? [])
    .filter((m) => roles.includes(m.role))
    .map((m) => contentText(m.content))
    .join('\n');
}

const call = (name, args) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

// ---------------------------------------------------------------------------------------------- household

const HOUSEHOLD_TOOLS = ['observe', 'act', 'admissible_actions', 'submit'];
const STATIONS = { clean: 'sinkbasin', hot: 'microwave', cool: 'fridge' };
const VERBS = { clean: 'clean', hot: 'heat', cool: 'cool' };

/** The goal of a household task from the text that states it ("Your task is to: put a clean cloth in drawer."). */
export function parseHouseholdGoal(text) {
  const m = /Your task is to:\s*([^\n]*)/i.exec(text);
  if (!m) return undefined;
  const g = m[1].trim().replace(/\.$/, '').toLowerCase();
  const look = /^(?:look at|examine the) (\S+) (?:under|with) the (\S+)$/.exec(g);
  if (look) return { kind: 'look', object: look[1], lamp: look[2], count: 1 };
  const two = /^(?:put two|find two) (\S+) (?:in|and put them in) (\S+)$/.exec(g);
  if (two) return { kind: 'place', object: two[1], target: two[2], count: 2 };
  const adjective = /^put a (clean|hot|cool) (\S+) in (\S+)$/.exec(g);
  if (adjective)
    return { kind: 'place', state: adjective[1], object: adjective[2], target: adjective[3], count: 1 };
  const verb = /^(clean|heat|cool) some (\S+) and put it in (\S+)$/.exec(g);
  if (verb) {
    const state = { clean: 'clean', heat: 'hot', cool: 'cool' }[verb[1]];
    return { kind: 'place', state, object: verb[2], target: verb[3], count: 1 };
  }
  const place = /^put (?:a|some) (\S+) (?:in|on) (\S+)$/.exec(g);
  if (place) return { kind: 'place', object: place[1], target: place[2], count: 1 };
  return undefined;
}

/** What the actions so far did, read from their observations. */
export function householdState(steps, goal) {
  const state = {
    at: undefined,
    held: undefined,
    placed: new Map(),
    transformed: new Set(),
    visited: new Set(),
    opened: new Set(),
    lampAt: undefined,
    triedSincePickup: new Set(),
  };
  const lamp = goal?.lamp ?? 'desklamp';
  for (const { observation } of steps) {
    const o = observation ?? '';
    const arrived = /You arrive at ([^.]+)\./.exec(o);
    if (arrived) {
      state.at = arrived[1];
      state.visited.add(arrived[1]);
      if (state.held) state.triedSincePickup.add(arrived[1]);
    }
    const opened = /You open the ([^.]+)\./.exec(o);
    if (opened) state.opened.add(opened[1]);
    const taken = /You pick up the (.+?) from the/.exec(o);
    if (taken) {
      state.held = taken[1];
      state.triedSincePickup = new Set();
    }
    const placed = /You (?:move|put) the (.+?) (?:to|in\/on|in) the ([^.]+)\./.exec(o);
    if (placed) {
      state.placed.set(placed[1], placed[2]);
      state.held = undefined;
    }
    const changed = /You (?:clean|heat|cool) the (.+?) using/.exec(o);
    if (changed) state.transformed.add(changed[1]);
    // Where the lamp stands: the receptacle whose contents ("you see …") named it.
    const seen = o
      .split(/you see/i)
      .slice(1)
      .join(' ');
    if (state.at && new RegExp(`\\b${lamp} \\d+\\b`).test(seen)) state.lampAt = state.at;
  }
  return state;
}

const kindOf = (name) => name.replace(/ \d+$/, '');

/**
 * The next action: a pure function of the goal, what the actions so far did, and the admissible actions now.
 * `options.open` (default true): whether it opens closed receptacles; `options.priority`: receptacle kinds
 * searched first, in order (default none: the admissible list's order).
 */
export function nextHouseholdAction(goal, state, admissible, options = {}) {
  const open = options.open ?? true;
  const priority = options.priority ?? [];
  const find = (re) => admissible.find((a) => re.test(a));
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const explore = () => {
    const gos = admissible.filter((a) => a.startsWith('go to ') && !state.visited.has(a.slice(6)));
    const rank = (a) => {
      const i = priority.indexOf(kindOf(a.slice(6)));
      return i < 0 ? priority.length : i;
    };
    // Array.prototype.sort is stable: equal ranks keep the admissible list's order.
    return gos.sort((a, b) => rank(a) - rank(b))[0] ?? 'look';
  };
  if (state.held) {
    const held = esc(state.held);
    if (goal.state && !state.transformed.has(state.held)) {
      const act = find(new RegExp(`^${VERBS[goal.state]} ${held} with `));
      if (act) return act;
      const go = find(new RegExp(`^go to ${STATIONS[goal.state]} \\d+$`));
      if (go) return go;
    }
    if (goal.kind === 'look') {
      const use = find(new RegExp(`^use ${esc(goal.lamp)} \\d+$`));
      if (use) return use;
      if (state.lampAt && admissible.includes(`go to ${state.lampAt}`)) return `go to ${state.lampAt}`;
      return explore();
    }
    const target = esc(goal.target);
    const firstPlace = [...state.placed.values()].find((r) => kindOf(r) === goal.target);
    const put = admissible.filter((a) =>
      new RegExp(`^(?:move ${held} to|put ${held} in/on) ${target} \\d+$`).test(a),
    );
    if (put.length > 0) return put.find((a) => firstPlace && a.endsWith(` ${firstPlace}`)) ?? put[0];
    if (open && state.at && kindOf(state.at) === goal.target && admissible.includes(`open ${state.at}`))
      return `open ${state.at}`;
    if (firstPlace && admissible.includes(`go to ${firstPlace}`)) return `go to ${firstPlace}`;
    const gos = admissible.filter((a) => new RegExp(`^go to ${target} \\d+$`).test(a));
    return gos.find((a) => !state.triedSincePickup.has(a.slice(6))) ?? gos[0] ?? explore();
  }
  const object = esc(goal.object);
  const takes = admissible.filter((a) => new RegExp(`^take ${object} \\d+ from `).test(a));
  // Pick-two: never take back an object already placed in a target.
  const take = takes.find((a) => !state.placed.has(a.replace(/^take (.+?) from .*$/, '$1')));
  if (take) return take;
  if (open && state.at && admissible.includes(`open ${state.at}`) && !state.opened.has(state.at))
    return `open ${state.at}`;
  return explore();
}

/** Receptacle kinds in the order the text first names them ("side tables" names sidetable). */
export function kindsNamedIn(text, kinds) {
  const compact = text.toLowerCase().replace(/[^a-z]/g, '');
  return kinds
    .map((k) => ({ k, i: compact.indexOf(k) }))
    .filter((x) => x.i >= 0)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.k);
}

/**
 * The household fake. Options: `skillAware` (above), `maxActions` (default 50: then it stops with a message).
 */
export function householdResponder(options = {}) {
  const maxActions = options.maxActions ?? 50;
  return (request) => {
    const act = offeredTool(request, 'act');
    const admissibleTool = offeredTool(request, 'admissible_actions');
    const observe = offeredTool(request, 'observe');
    if (!act || !admissibleTool)
      return 'I cannot play: the tools `act` and `admissible_actions` were not offered.';
    const history = toolHistory(request, HOUSEHOLD_TOOLS);
    const steps = history
      .filter((c) => c.name === 'act' && c.result !== undefined)
      .map((c) => ({ action: String(c.args.action ?? ''), observation: c.result }));
    const last = history.at(-1);
    if (last?.name === 'act' && /\[episode done\]\s*$/.test(last.result ?? '')) return 'The episode is over.';
    if (last?.name === 'submit') return 'Submitted.';
    if (steps.length >= maxActions) return `I stop after ${maxActions} actions.`;
    const observed = history
      .filter((c) => c.name === 'observe')
      .map((c) => c.result ?? '')
      .join('\n');
    const goal =
      parseHouseholdGoal(`${messagesText(request, ['user'])}\n${observed}`) ??
      parseHouseholdGoal(messagesText(request, ['system', 'tool']));
    if (!goal)
      return observe && !history.some((c) => c.name === 'observe')
        ? call(observe, {})
        : 'I cannot find the task ("Your task is to: …").';
    if (last?.name !== 'admissible_actions' || last.result === undefined) return call(admissibleTool, {});
    const admissible = parseActionList(last.result);
    const state = householdState(steps, goal);
    let choice;
    if (options.skillAware) {
      const system = messagesText(request, ['system']);
      const kinds = [
        ...new Set(admissible.filter((a) => a.startsWith('go to ')).map((a) => kindOf(a.slice(6)))),
      ];
      choice = nextHouseholdAction(goal, state, admissible, {
        open: /\bopen\b/i.test(system),
        priority: kindsNamedIn(system, kinds),
      });
    } else {
      choice = nextHouseholdAction(goal, state, admissible);
    }
    return call(act, { action: choice });
  };
}

/** The admissible actions from a tool result: one per line, or a JSON array of strings. */
export function parseActionList(text) {
  const t = text.trim();
  if (t.startsWith('[')) {
    try {
      const list = JSON.parse(t);
      if (Array.isArray(list)) return list.map(String);
    } catch {
      // lines, then
    }
  }
  return t
    .split('\n')
    .map((l) => l.trim().replace(/^[-*] /, ''))
    .filter((l) => l.length > 0 && !/^admissible actions/i.test(l));
}

// ------------------------------------------------------------------------------------------------------ QA

const QA_TOOLS = [
  'read_file',
  'web_search',
  'fetch_page',
  'visit_page',
  'submit',
  'act',
  'observe',
  'admissible_actions',
];

/** The question of a GAIA-style prompt: its last paragraph with a question mark. */
export function questionOf(text) {
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.includes('?'));
  const p = paragraphs.at(-1)?.trim() ?? '';
  return (
    p
      .split(/(?<=\?)/)
      .filter((s) => s.includes('?'))
      .at(-1)
      ?.trim() ?? p
  );
}

/** The answer the fake reads off a tool result, or undefined when the result holds none. */
export function answerFrom(name, result) {
  if (name === 'read_file') {
    const rows = result.split('\n').filter((l) => l.includes(','));
    const numbers = rows.map((l) => Number(l.split(',').at(-1))).filter((n) => Number.isFinite(n));
    if (numbers.length > 0) return String(numbers.reduce((a, b) => a + b, 0));
    return /cannot read|image/i.test(result) ? 'unknown' : undefined;
  }
  if (name === 'fetch_page' || name === 'visit_page') {
    const m = /founded (?:in |around |about )?(\d{3,4})/i.exec(result);
    return m ? m[1] : 'unknown';
  }
  return undefined;
}

/** The QA fake. Options: `answerWith`: 'submit' (default when offered) or 'text'. */
export function qaResponder(options = {}) {
  return (request) => {
    const history = toolHistory(request, QA_TOOLS);
    const prompt =
      messagesText(request, ['user']) ||
      history
        .filter((c) => c.name === 'observe')
        .map((c) => c.result ?? '')
        .join('\n');
    const question = questionOf(prompt);
    const submit = options.answerWith === 'text' ? undefined : offeredTool(request, 'submit');
    const done = history.find((c) => c.name === 'submit' && c.result !== undefined);
    const answered = [...history]
      .reverse()
      .map((c) => (c.result === undefined ? undefined : answerFrom(c.name, c.result)))
      .find((a) => a !== undefined);
    if (done) return `FINAL ANSWER: ${String(done.args.answer ?? answered ?? 'unknown')}`;
    if (answered !== undefined)
      return submit
        ? call(submit, { answer: answered })
        : `The tools gave me the answer.\nFINAL ANSWER: ${answered}`;
    const used = (name) => history.some((c) => c.name === name);
    const readFile = offeredTool(request, 'read_file');
    if (/attached/i.test(prompt) && readFile && !used('read_file')) return call(readFile, {});
    const search = offeredTool(request, 'web_search');
    if (search && !used('web_search')) return call(search, { query: question });
    const fetchPage = offeredTool(request, 'fetch_page');
    const hits = history.find((c) => c.name === 'web_search')?.result ?? '';
    const url = /https?:\/\/\S+/.exec(hits)?.[0];
    if (fetchPage && url && !used('fetch_page')) return call(fetchPage, { url });
    const fallback = 'unknown';
    return submit ? call(submit, { answer: fallback }) : `FINAL ANSWER: ${fallback}`;
  };
}

/**
 * What the fake skill editor may add to a skill, one line per revision: two lines the skill-aware household
 * player acts on (opening receptacles; where to search first), and lines it ignores. Which line a candidate
 * adds is drawn from the request's seed (skillrl's LLM editor sends each candidate with its own), so the
 * candidates of a generation differ, and Skill-R1 keeps the one that did best.
 */
export const EDITOR_HINTS = [
  'Open every closed receptacle (drawers, cabinets, the fridge, the safe) and look inside before moving on.',
  'Search the countertops, dining tables and shelves first, then the cabinets and drawers.',
  'Think about the goal before each action.',
  'Keep the goal object in mind and do not give up early.',
  'Take one action at a time and read what the environment says.',
];

/** The skill carried into the editor's prompt (a fenced SKILL.md under "## Current skill"), as body lines. */
function currentSkillLines(text) {
  const fenced = /## Current skill\s+```(?:markdown)?\n([\s\S]*?)```/.exec(text)?.[1];
  if (!fenced) return [];
  const body = fenced.replace(/^---\n[\s\S]*?\n---\n?/, '');
  return body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));
}

/**
 * The fake skill editor (skillrl's `llm-editor` talking to the fake): keeps the current skill's lines and adds
 * one of `EDITOR_HINTS`, chosen by the request's seed, as a valid SKILL.md in a markdown fence.
 */
export function editorResponder() {
  return (request) => {
    const text = messagesText(request, ['user']);
    const lines = currentSkillLines(text);
    const seed = Number.isInteger(request.seed) ? request.seed : 0;
    const hint = EDITOR_HINTS[seed % EDITOR_HINTS.length];
    const next = lines.includes(hint) ? lines : [...lines, hint];
    return [
      '```markdown',
      '---',
      'name: household-search',
      'description: How to find an object in a household and bring it where the task says. Use for every household task.',
      '---',
      '',
      '# Household search',
      '',
      ...next.map((l) => `- ${l}`),
      '```',
    ].join('\n');
  };
}

/** Whether a request is skillrl's LLM editor asking for a revision (its system prompt says so). */
export function isEditorRequest(request) {
  return /You are a skill editor/.test(messagesText(request, ['system']));
}

/** The responder an example's fake model uses, by the example's adapter. */
export function responderFor(adapter, options = {}) {
  if (adapter === 'household') return householdResponder(options);
  if (adapter === 'qa' || adapter === 'gaia') return qaResponder(options);
  throw new Error(`no fake responder for adapter "${adapter}" (expected household or qa)`);
}
