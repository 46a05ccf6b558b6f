import { InvalidArgumentError } from '@skillrl/core';
import type { EpisodeNote, HistorySummary } from './summarize-history.js';

export interface RenderHistoryOptions {
  /** Earlier skills listed, best of each generation first (default 4). */
  maxSkills?: number;
  /** Print each listed skill's body under it (default true). */
  includeSkillBodies?: boolean;
}

const fmt = (x: number): string => x.toFixed(2);
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;

function episodeLine(e: EpisodeNote): string {
  const parts = [`g${e.generation} reward ${fmt(e.reward)}`];
  if (e.failingStep !== undefined) parts.push(`first failing step ${e.failingStep}`);
  if (e.reason !== undefined) parts.push(`verifier: ${JSON.stringify(e.reason)}`);
  if (e.lastObservation !== undefined) parts.push(`last observation: ${JSON.stringify(e.lastObservation)}`);
  return `- ${parts.join('; ')}`;
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => (line.length > 0 ? `    ${line}` : ''))
    .join('\n');
}

/**
 * The history summary as markdown for an LLM editor's prompt: carried rewards and their trend, earlier
 * skills with their rewards, and where episodes failed or succeeded. An empty history renders as one line.
 */
export function renderHistory(summary: HistorySummary, options: RenderHistoryOptions = {}): string {
  const maxSkills = options.maxSkills ?? 4;
  if (!Number.isInteger(maxSkills) || maxSkills < 0) {
    throw new InvalidArgumentError('options.maxSkills', `expected an integer >= 0, got ${maxSkills}`);
  }
  const bodies = options.includeSkillBodies ?? true;
  if (summary.generations === 0) return 'No earlier generations: this is the first skill for the task.\n';

  const lines: string[] = [];
  const first = summary.window[0];
  const last = summary.window.at(-1);
  lines.push(`## History (generations ${first}–${last} of ${summary.generations})`, '');
  const rewards = summary.rewards.map((r) => `g${r.generation} ${fmt(r.reward)}`).join(', ');
  lines.push(`Reward of the carried skill: ${rewards} (trend ${signed(summary.trend)}).`);
  if (summary.best !== undefined) {
    lines.push(
      `Best so far: ${fmt(summary.best.reward)} by \`${summary.best.skill.name}\` (generation ${summary.best.generation}).`,
    );
  }

  if (maxSkills > 0 && summary.skills.length > 0) {
    // Newest generation first: the editor revises from the latest attempts.
    const listed = [...summary.skills]
      .sort((a, b) => b.generation - a.generation || b.reward - a.reward)
      .slice(0, maxSkills);
    lines.push('', `### Earlier skills (${listed.length} of ${summary.skills.length})`, '');
    for (const s of listed) {
      lines.push(
        `- g${s.generation} \`${s.skill.name}\`: reward ${fmt(s.reward)}${s.carried ? ' (carried)' : ''}`,
      );
      if (bodies && s.skill.body.trim().length > 0) lines.push(indent(s.skill.body));
    }
  }

  const total = summary.failures.count + summary.successes.count;
  if (summary.failures.count > 0) {
    lines.push('', `### Failed episodes (${summary.failures.count} of ${total})`, '');
    if (summary.failures.firstFailingStep !== undefined) {
      lines.push(
        `First failing step: earliest ${summary.failures.firstFailingStep}, mean ${fmt(summary.failures.meanFailingStep ?? 0)}.`,
      );
    }
    if (summary.failures.reasons.length > 0) {
      lines.push(
        `Verifier reasons: ${summary.failures.reasons.map((r) => `${JSON.stringify(r.reason)} ×${r.count}`).join(', ')}.`,
      );
    }
    for (const e of summary.failures.examples) lines.push(episodeLine(e));
  }
  if (summary.successes.count > 0) {
    lines.push('', `### Successful episodes (${summary.successes.count} of ${total})`, '');
    for (const e of summary.successes.examples) lines.push(episodeLine(e));
  }
  return `${lines.join('\n')}\n`;
}
