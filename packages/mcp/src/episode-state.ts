import type { ActResult, EpisodeHandler } from './episode-handler.js';

/**
 * One episode as its MCP sessions see it: the handler, and what the environment last said. Calls that step
 * the episode run one at a time, in arrival order, even when a client sends several at once (the runner
 * behind the handler steps one action at a time, and `observe` must see the step before it).
 */
export interface EpisodeState {
  readonly handler: EpisodeHandler;
  /** The last environment observation (the initial one before any step), with whether the episode is over. */
  observe(): Promise<ActResult>;
  act(action: string): Promise<ActResult>;
  submit(answer: string): Promise<ActResult>;
  callTool(name: string, args: Record<string, unknown>): Promise<ActResult>;
  admissibleActions(): Promise<string[] | undefined>;
}

function checked(result: ActResult, call: string): ActResult {
  if (typeof result !== 'object' || result === null || typeof result.observation !== 'string') {
    throw new TypeError(`the episode handler's ${call} resolved without an observation string`);
  }
  return result;
}

export function createEpisodeState(handler: EpisodeHandler): EpisodeState {
  let current: ActResult | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = tail.then(run, run);
    tail = next.catch(() => undefined);
    return next;
  };
  const initial = async (): Promise<ActResult> => {
    current ??= { observation: String(await handler.initialObservation()), done: false };
    return current;
  };
  return {
    handler,
    observe: () => serial(initial),
    act: (action) =>
      serial(async () => {
        current = checked(await handler.act(action), 'act');
        return current;
      }),
    submit: (answer) =>
      serial(async () => {
        current = checked(await handler.submit(answer), 'submit');
        return current;
      }),
    callTool: (name, args) =>
      serial(async () => {
        const result = checked(await handler.callTool(name, args), `callTool(${JSON.stringify(name)})`);
        // A tool's text is not an observation of the environment, but a tool call can end the episode (the
        // runner's tool budget): `observe` then reports the last observation with the episode over.
        if (result.done || result.ended !== undefined) {
          const before = await initial();
          current = {
            observation: before.observation,
            done: result.done,
            ...(result.ended !== undefined ? { ended: result.ended } : {}),
          };
        }
        return result;
      }),
    admissibleActions: () => serial(async () => (await handler.admissibleActions()) ?? undefined),
  };
}
