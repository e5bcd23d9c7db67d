/**
 * Ports shared by stages, created lazily and closed once at the end of a run. Each edge adds
 * its factory here; stages only see the interfaces.
 */
export interface Services {
  /** Register something to close when the run ends (long-lived git processes, servers…). */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
  /** Memoised lazily-created service by name. */
  get<T>(name: string, create: () => T): T;
}

export function createServices(): Services {
  const closers: (() => Promise<void> | void)[] = [];
  const cache = new Map<string, unknown>();
  return {
    onClose: (fn) => void closers.push(fn),
    get<T>(name: string, create: () => T): T {
      if (!cache.has(name)) cache.set(name, create());
      return cache.get(name) as T;
    },
    async close() {
      const errors: unknown[] = [];
      while (closers.length > 0) {
        try {
          await closers.pop()!();
        } catch (error) {
          errors.push(error);
        }
      }
      cache.clear();
      if (errors.length > 0) throw errors[0];
    },
  };
}
