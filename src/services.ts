/** What a run closes once at its end (its git port, long-lived processes, servers…). */
export interface Services {
  /** Register something to close when the run ends (long-lived git processes, servers…). */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export function createServices(): Services {
  const closers: (() => Promise<void> | void)[] = [];
  return {
    onClose: (fn) => void closers.push(fn),
    async close() {
      const errors: unknown[] = [];
      while (closers.length > 0) {
        try {
          await closers.pop()!();
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length > 0) throw errors[0];
    },
  };
}
