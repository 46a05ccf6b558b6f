/** What the fake answers a request it refuses: the status, and `{ detail: message }` as the body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
