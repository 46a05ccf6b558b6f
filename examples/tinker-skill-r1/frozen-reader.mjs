// The frozen task model of the Skill-R1 example, as the testkit's fake OpenAI-compatible server answers: it
// reads the skill in its system prompt and answers the first color the skill names; with no skill, or one
// that names no color, it guesses (seeded by the request). Skill-R1 trains the editor that writes the skill;
// this model never changes. Point the config's agent at any OpenAI-compatible endpoint (a closed model, vLLM,
// a Tinker sampler) to use a real one.
export const COLORS = ['red', 'blue', 'green', 'yellow', 'white', 'black', 'orange', 'purple'];

export function respond(request) {
  const system = request.messages?.find((m) => m.role === 'system')?.content ?? '';
  const skill = /<skill[^>]*>([\s\S]*?)<\/skill>/.exec(String(system))?.[1] ?? '';
  const named = skill
    .toLowerCase()
    .split(/[^a-z]+/)
    .find((word) => COLORS.includes(word));
  const seed = Number(request.seed ?? 0);
  const guess = COLORS[Math.abs(Math.trunc(seed)) % COLORS.length];
  return `<action>${named ?? guess}</action>`;
}
