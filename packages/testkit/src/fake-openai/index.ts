export { FAKE_IM_END, FAKE_IM_START, fakePromptTokenIds } from './fake-chat-template.js';
export { FAKE_VOCAB_SIZE, fakeLogProbs, fakeTokenId, fakeTokenize } from './fake-tokens.js';
export { startFakeOpenAI } from './start-fake-openai.js';
export {
  ENDPOINT_FAULT_KINDS,
  FAULT_KINDS,
  type FakeChatRequest,
  type FakeFaultOptions,
  type FakeOpenAIOptions,
  type FakeOpenAIServer,
  type FakeOpenAIStats,
  type FakeReply,
  type FakeRequestContext,
  type FakeToolCall,
  type FaultKind,
  type RecordedRequest,
} from './types.js';
