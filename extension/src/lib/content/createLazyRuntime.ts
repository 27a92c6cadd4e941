/**
 * Loads something once, on first need: `get()` starts the load (a failed one is tried again on
 * the next call), `current()` is what loaded, or null while it has not.
 * @example const runtime = createLazyRuntime(loadPageRuntime); runtime.get().then((r) => r.entered(entry))
 */
export function createLazyRuntime<T>(load: () => Promise<T>) {
  let loading: Promise<T> | null = null;
  let loaded: T | null = null;
  return {
    get(): Promise<T> {
      loading ??= load().then(
        (value) => {
          loaded = value;
          return value;
        },
        (error: unknown) => {
          // The tab navigated or the extension reloaded mid-load: the next need asks again.
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    current: (): T | null => loaded,
  };
}
