// A small EpisodeHandler for this package's own tests: it steps a real task environment and runs the task's
// real tools directly. The real bridge (over `runEpisode`) belongs to the program agent; this one only needs
// to be honest about the environment's answers, the step limit and the episode's end.
import type { StepResult, Task, TaskAdapter } from '@skillrl/core';
import type { ActResult, EpisodeHandler } from '../src/index.js';

export interface StepBridge extends EpisodeHandler {
  /** Every environment step's result, in order (the last one carries the reward). */
  readonly results: StepResult[];
  /** Tool calls executed, as `name(args)`. */
  readonly toolCalls: string[];
}

export async function createStepBridge(
  adapter: TaskAdapter,
  task: Task,
  episodeId: string,
): Promise<StepBridge> {
  const env = await adapter.createEnvironment(task);
  const first = await env.reset();
  const tools = adapter.tools ?? [];
  const results: StepResult[] = [];
  const toolCalls: string[] = [];
  let steps = 0;
  let over = false;

  const refuseWhenOver = () => {
    if (over) throw new Error(`episode ${episodeId} is over: no more actions`);
  };
  const count = (result: { observation: string; done: boolean }): ActResult => {
    steps += 1;
    over = result.done;
    if (!over && steps >= env.maxSteps) {
      over = true;
      return { ...result, ended: `the step limit (${env.maxSteps}) is reached` };
    }
    return result;
  };
  const step = async (action: string): Promise<ActResult> => {
    refuseWhenOver();
    const result = await env.step(action);
    results.push(result);
    return count({ observation: result.observation, done: result.done });
  };

  return {
    episodeId,
    tools,
    results,
    toolCalls,
    initialObservation: () => first,
    act: step,
    submit: step,
    async callTool(name, args) {
      refuseWhenOver();
      const tool = tools.find((t) => t.name === name);
      if (!tool?.execute) throw new Error(`no tool ${name} in this episode`);
      toolCalls.push(`${name}(${JSON.stringify(args)})`);
      const text = await tool.execute(args, { task });
      return count({ observation: text, done: false });
    },
    admissibleActions: () => env.admissibleActions?.(),
  };
}
