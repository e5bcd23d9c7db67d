/** Marks a response rebuilt from the cache after a 304 (read by the port to tell unchanged lists). */
export const NOT_MODIFIED_HEADER = 'x-r2v-not-modified';
