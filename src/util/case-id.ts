import { digestOf } from './canonical.js';

/** `owner_repo__<number>__<8 hex>`: the hex is a digest of the case's defining inputs. */
export function caseId(repo: string, number: number, definingInputs: unknown): string {
  const slug = repo.replace('/', '_').replace(/[^A-Za-z0-9._-]/g, '-');
  return `${slug}__${number}__${digestOf(definingInputs).slice(0, 8)}`;
}
