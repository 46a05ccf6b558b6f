/**
 * Seeds sent to a model server (an OpenAI-compatible `seed`, a Tinker sampling seed) stay below 2^31:
 * llama.cpp, some vLLM versions and Tinker hold them in a 32-bit int and reject larger ones. Every client
 * folds its seeds into this range the same way (`seed % REQUEST_SEED_RANGE`).
 */
export const REQUEST_SEED_RANGE = 2 ** 31;
