import { InvalidArgumentError } from '@skillrl/core';

/** The `seq_id`s of a client's training calls, per model (shared by the training and weights resources). */
export interface TrainingSeqIds {
  /** The given `seq_id` (recorded), or the next of the model's counter. */
  seqFor(modelId: string, given: number | undefined): number;
  /** The request with its `seq_id` (the given one, or the next). */
  numbered<R extends { model_id: string; seq_id?: number }>(request: R): R & { seq_id: number };
  /** The `seq_id` the next training call of a model would get from the counter. */
  next(modelId: string): number;
}

// seq_id: the SDK numbers a training client's requests `request_id + 1` (a server decodes a missing one as
// 0 and refuses it). A request that carries one is recorded; one without gets the next of its model.
export function createTrainingSeqIds(): TrainingSeqIds {
  const seqs = new Map<string, number>();
  const seqFor = (modelId: string, given: number | undefined): number => {
    const last = seqs.get(modelId) ?? 0;
    if (given !== undefined) {
      if (!(Number.isInteger(given) && given >= 1)) {
        throw new InvalidArgumentError('seq_id', `expected an integer >= 1, got ${given}`);
      }
      seqs.set(modelId, Math.max(last, given));
      return given;
    }
    seqs.set(modelId, last + 1);
    return last + 1;
  };
  return {
    seqFor,
    numbered: (request) => ({ ...request, seq_id: seqFor(request.model_id, request.seq_id) }),
    next: (modelId) => (seqs.get(modelId) ?? 0) + 1,
  };
}
