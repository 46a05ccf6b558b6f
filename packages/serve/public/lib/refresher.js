/**
 * Runs `load` again when asked, never two at once: a burst of change events while one fetch is under way
 * costs one more fetch, not one per event.
 */
export function refresher(load) {
  let running = false;
  let again = false;
  let disposed = false;
  const run = async () => {
    if (disposed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await load();
    } finally {
      running = false;
      if (again && !disposed) {
        again = false;
        void run();
      }
    }
  };
  return {
    run,
    dispose() {
      disposed = true;
    },
  };
}
