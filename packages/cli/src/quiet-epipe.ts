/**
 * A reader that goes away (`skillrl … | head -1`) closes the pipe: later writes fail with EPIPE, which
 * Node reports as an unhandled 'error' event and a stack trace. The CLI stops writing to that stream
 * instead, quietly; the command itself finishes as it would have.
 */
export function quietOnEpipe(stream: NodeJS.WriteStream): { closed(): boolean } {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
      closed = true;
      return;
    }
    throw error;
  });
  return { closed: () => closed || stream.destroyed };
}
