import type { SkillCandidate, SkillGenerator } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { editorUpdateInput } from './editor-update.js';
import type { SkillR1ProposalAttempt } from './propose-candidates.js';
import type { SkillR1AdvantageRow } from './skill-r1-generation.js';

export interface ReplaySkillR1UpdatesInput {
  /**
   * Generations a checkpoint covers (its `completed`: generations 0..completed − 1 finished). Generation 0
   * measures s0 and updates nothing, so generations 1..completed − 1 are replayed, in order.
   */
  completed: number;
  /** The training tasks' ids: their stored proposals hold the rejected replies each update was given. */
  taskIds: readonly string[];
  /** A generation's stored advantage rows (`SkillR1GenerationResult.advantages`); `undefined`: none, skipped. */
  readAdvantages(
    generation: number,
  ): readonly Pick<SkillR1AdvantageRow, 'taskId' | 'candidate' | 'advantage' | 'fallback'>[] | undefined;
  /** What a generation stored for a task's proposal (`onCandidates`): its candidates and editor calls. */
  readProposal(
    generation: number,
    taskId: string,
  ): { candidates?: readonly SkillCandidate[]; attempts?: SkillR1ProposalAttempt[] } | undefined;
  /** The editor to rebuild: one that cannot save its state, fresh as the run created it. */
  editor: Required<Pick<SkillGenerator, 'update'>>;
}

/**
 * Rebuilds a trained editor on resume by replaying each finished generation's update in order, from what the
 * run stored: the same rule as the generation step's (`editorUpdateInput`: own candidates, never a
 * fallback's current skill, and the rejected replies), so the editor ends where the interrupted run's was.
 * A row whose candidate is not stored is a damaged run directory (`InvalidArgumentError`).
 */
export async function replaySkillR1Updates(input: ReplaySkillR1UpdatesInput): Promise<void> {
  for (let g = 1; g < input.completed; g++) {
    const rows = input.readAdvantages(g);
    if (!rows) continue;
    const learned = editorUpdateInput(
      rows,
      input.taskIds.map((taskId) => ({ attempts: input.readProposal(g, taskId)?.attempts ?? [] })),
    );
    if (!learned) continue;
    const candidates = learned.rows.map((r) => {
      const candidate = input.readProposal(g, r.taskId)?.candidates?.[r.candidate];
      if (!candidate) {
        throw new InvalidArgumentError(
          'run directory',
          `candidate ${r.candidate} of ${r.taskId} in generation ${g} is missing`,
        );
      }
      return candidate;
    });
    await input.editor.update(
      candidates,
      learned.rows.map((r) => r.advantage),
      { rejected: learned.rejected },
    );
  }
}
