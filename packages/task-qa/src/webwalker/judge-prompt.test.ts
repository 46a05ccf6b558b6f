import { describe, expect, it } from 'vitest';
import { buildWebWalkerJudgePrompt, WEBWALKER_JUDGE_TEMPLATE } from './judge-prompt.js';

describe('the WebWalkerQA judge prompt', () => {
  it("is LangChain's COT_PROMPT with the question, gold answer as CONTEXT, and prediction", () => {
    const prompt = buildWebWalkerJudgePrompt({ question: 'Q?', reference: 'Gold.', prediction: 'Pred.' });
    expect(
      prompt.startsWith(
        'You are a teacher grading a quiz.\nYou are given a question, the context the question is about',
      ),
    ).toBe(true);
    expect(prompt).toContain(
      'EXPLANATION: step by step reasoning here\nGRADE: CORRECT or INCORRECT here\n\n',
    );
    expect(prompt).toContain('as long as it does not contain any conflicting statements. Begin! \n\n');
    expect(prompt.endsWith('QUESTION: Q?\nCONTEXT: Gold.\nSTUDENT ANSWER: Pred.\nEXPLANATION:')).toBe(true);
    expect(WEBWALKER_JUDGE_TEMPLATE.length).toBe(
      prompt.length - 'Q?Gold.Pred.'.length + '{query}{context}{result}'.length,
    );
  });

  it('fills placeholders once, like str.format', () => {
    const prompt = buildWebWalkerJudgePrompt({
      question: 'What is {context}?',
      reference: '$& {result}',
      prediction: 'x',
    });
    expect(prompt).toContain('QUESTION: What is {context}?\nCONTEXT: $& {result}\nSTUDENT ANSWER: x\n');
  });
});
