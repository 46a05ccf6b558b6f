/**
 * @skillrl/core — the spec package. Every skillrl package, and every third-party estimator or task
 * adapter, depends on this one alone.
 */

// Contracts: the interfaces components implement (types only).
export type * from './contracts/index.js';

// An LLM agent's per-turn record (messages, tools, reply, prompt token ids), delta-coded per step.
export * from './chat-turn/index.js';
// Typed errors, recognisable across package copies with `X.isInstance(e)`.
export * from './errors/index.js';
// Seeded, forkable random streams.
export * from './rng/index.js';
// Crash-safe run directory: append-only JSONL streams and atomic snapshots.
export * from './run-store/index.js';
// JSON Schemas for everything that crosses a disk or a process, and `validate(kind, value)`.
export * from './schema/index.js';
// A run config: its types, its JSON Schema, the shared sections' defaults (health, store, workers).
export * from './run-config/index.js';
// A component's option check: its vocabulary as a table of rules, every problem by path, a did-you-mean.
export * from './options/index.js';
// Keeping API keys out of errors, logs and run directories.
export * from './secrets/index.js';
// SKILL.md: parse, format, validate (Agent Skills rules); the most specific skill for a family.
export * from './skill/index.js';
// Reading a trajectory: whether the environment itself reported it won (the rule the kit and runs share).
export * from './trajectory/index.js';
// Small statistics every package summarises with.
export * from './stats/index.js';
// The Tinker SDK's protobuf wire schema (its FileDescriptorProto), read by trainer-tinker and the testkit's fake.
export * from './tinker-wire/index.js';
