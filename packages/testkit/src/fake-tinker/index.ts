export { colorTasksAdapter } from './color-tasks-adapter.js';
export {
  type AdamState,
  type BasePrior,
  buildBasePrior,
  type FakeAdamParams,
  type FakeBaseModelSpec,
  type FakeSamplingParams,
  type LoraLayout,
  loraLayout,
  sampleSequence,
  sequenceLogProbs,
} from './lora-model.js';
export { startFakeTinker } from './start-fake-tinker.js';
export {
  requiredLossInputs,
  TINKER_LOSSES,
  type TinkerLossConfig,
  type TinkerLossName,
  type TokenLossInput,
  tokenLoss,
} from './tinker-losses.js';
export { TINY_CHAT_MODEL, TINY_EDITOR_MODEL, tinyChatBaseModels, tinyChatDir } from './tiny-chat.js';
export * from './types.js';
