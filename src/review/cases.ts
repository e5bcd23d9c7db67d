/**
 * The cases a reviewer can decide, read from the stored Backward and Forward tables: what the
 * reviewer sees (`view`), the digest a decision binds to, and the texts a screener's quotes must
 * come from. A case the rules rejected is never reviewable: no decision can admit it.
 */
import { threadFromRows } from '../backward/thread.js';
import type { Store } from '../store/db.js';
import { BackwardTables } from '../store/tables/backward.js';
import { ForwardTables, type ForwardCase } from '../store/tables/forward.js';
import { Sources } from '../store/tables/sources.js';
import { backwardDigestOfRows, forwardDigestOfCase } from './digest.js';
import { backwardCaseKey, forwardCaseKey, parseCaseKey, type ReviewTask } from './keys.js';

export type ScreenDecision = 'candidate' | 'review';

export interface ThreadText {
  readonly title: string;
  readonly posts: readonly { readonly index: number; readonly author: string; readonly created_at: string; readonly body: string }[];
}

export interface ReviewCase {
  readonly caseKey: string;
  readonly caseId: string;
  readonly task: ReviewTask;
  readonly repo: string;
  readonly inputDigest: string;
  /** The rules' decision: `review` needs a human; a `candidate` needs one only under --require-review. */
  readonly screenDecision: ScreenDecision;
  /** What a reviewer sees: JSON-ready, snake_case, no ledger state. */
  readonly view: Record<string, unknown>;
  /** The whole thread (Backward), which a screener reads and quotes from; null for Forward. */
  readonly thread: ThreadText | null;
  /** Texts a screener's quotes must be exact substrings of. */
  readonly quoteSources: readonly string[];
}

/** What the store knows about a case key or case id. */
export type CaseLookup =
  | { readonly kind: 'reviewable'; readonly case: ReviewCase }
  | { readonly kind: 'rejected'; readonly caseKey: string; readonly caseId: string | null; readonly codes: string[] }
  | { readonly kind: 'incomplete'; readonly caseKey: string; readonly caseId: string | null; readonly why: string };

export interface CaseIndex {
  readonly byKey: ReadonlyMap<string, CaseLookup>;
  readonly byId: ReadonlyMap<string, CaseLookup>;
}

export interface CaseScope {
  readonly task?: ReviewTask;
  /** Only these repositories (default: every repository in the database). */
  readonly repos?: readonly string[];
}

const uniq = (xs: readonly string[]): string[] => [...new Set(xs)];

/** The commit URL next to an issue URL of the same host (`…/issues/N` → `…/commit/SHA`). */
function commitUrl(issueUrl: string, sha: string): string | null {
  const m = /^(https?:\/\/.+)\/issues\/\d+$/.exec(issueUrl);
  return m ? `${m[1]}/commit/${sha}` : null;
}

function backwardLookups(store: Store, repos: readonly string[] | undefined): CaseLookup[] {
  const tables = store.backward;
  const sources = store.sources;
  const out: CaseLookup[] = [];
  for (const screen of tables.screens({ repos })) {
    const { repo, number } = screen;
    const caseKey = backwardCaseKey(repo, number);
    const record = tables.caseOf(repo, number);
    const caseId = screen.caseId ?? record?.caseId ?? null;
    if (screen.decision === 'reject') {
      out.push({ kind: 'rejected', caseKey, caseId, codes: uniq(screen.reasons.map((r) => r.code)) });
      continue;
    }
    const report = tables.report(repo, number);
    const row = sources.thread(repo, number);
    if (!record || record.status !== 'resolved' || !record.gold || !record.caseId || !report || !row) {
      out.push({ kind: 'incomplete', caseKey, caseId, why: 'no resolved gold, sanitized report or thread (run the Backward stages)' });
      continue;
    }
    const thread = threadFromRows(row, sources.comments(repo, number));
    const attributions = tables.attributions(repo, number);
    const issueUrl = row.htmlUrl || record.reportUrl;
    const postUrl = (post: number): string | null => {
      const p = thread.posts[post];
      if (!p) return null;
      if (p.url) return p.url;
      return post === 0 ? issueUrl : `${issueUrl}#issuecomment-${p.id}`;
    };
    const quotes = attributions.map((a) => ({
      text: a.sentence.text,
      ref: a.ref.text,
      kind: a.kind,
      where: a.post === -1 ? 'title' : a.post === 0 ? 'body' : `comment ${a.post}`,
      author: a.author,
      created_at: a.createdAt,
      hedged: a.hedged,
      url: postUrl(a.post),
    }));
    const inputDigest = backwardDigestOfRows({ report, record, attributions })!;
    out.push({
      kind: 'reviewable',
      case: {
        caseKey,
        caseId: record.caseId,
        task: 'backward',
        repo,
        inputDigest,
        screenDecision: screen.decision,
        view: {
          case_key: caseKey,
          case_id: record.caseId,
          task: 'backward',
          repo,
          number,
          input_digest: inputDigest,
          screen: { decision: screen.decision, reasons: screen.reasons.map((r) => ({ stage: r.stage, code: r.code, evidence: r.evidence })) },
          quotes,
          links: { issue: issueUrl, gold_commit: commitUrl(issueUrl, record.gold) },
          report: report.text,
          gold: record.gold,
          cutoff: record.cutoff,
        },
        thread: {
          title: thread.title,
          posts: thread.posts.map((p) => ({ index: p.index, author: p.author, created_at: p.createdAt, body: p.body })),
        },
        quoteSources: [thread.title, ...thread.posts.map((p) => p.body)],
      },
    });
  }
  return out;
}

function forwardLookup(c: ForwardCase): CaseLookup {
  const caseKey = forwardCaseKey(c.repo, c.issue, c.pull);
  if (c.decision === 'reject') return { kind: 'rejected', caseKey, caseId: c.case_id, codes: uniq(c.reasons.map((r) => r.code)) };
  const inputDigest = forwardDigestOfCase(c);
  if (c.decision === 'pending' || inputDigest === null || c.issue_text === null) {
    return { kind: 'incomplete', caseKey, caseId: c.case_id, why: 'not screened yet (run the Forward stages)' };
  }
  return {
    kind: 'reviewable',
    case: {
      caseKey,
      caseId: c.case_id,
      task: 'forward',
      repo: c.repo,
      inputDigest,
      screenDecision: c.decision,
      view: {
        case_key: caseKey,
        case_id: c.case_id,
        task: 'forward',
        repo: c.repo,
        number: c.issue,
        pull: c.pull,
        input_digest: inputDigest,
        screen: { decision: c.decision, reasons: c.reasons.map((r) => ({ stage: r.stage, code: r.code, evidence: r.evidence })), flags: c.flags },
        links: { issue: c.source.issue_url, pull: c.source.pr_url, link_kinds: c.source.link_kinds },
        issue_text: c.issue_text,
        base: c.base,
        context: c.context,
        changed_paths: c.changed_paths,
        gold: c.gold,
        evaluator: c.evaluator,
        stability: c.stability,
        repository_prior: c.prior,
        labels: c.labels,
      },
      thread: null,
      quoteSources: [c.issue_text],
    },
  };
}

/** Every case of the scope the store knows, reviewable or not, sorted by case key. */
export function lookupCases(store: Store, scope: CaseScope = {}): CaseLookup[] {
  const out: CaseLookup[] = [];
  if (scope.task !== 'forward') out.push(...backwardLookups(store, scope.repos));
  if (scope.task !== 'backward') for (const c of store.forward.iterateCases(scope.repos)) out.push(forwardLookup(c));
  return out.sort(byCaseKey);
}

const keyOf = (l: CaseLookup): string => (l.kind === 'reviewable' ? l.case.caseKey : l.caseKey);

/** Repository, then issue number, then pull number (Backward first), then the key text. */
function byCaseKey(a: CaseLookup, b: CaseLookup): number {
  const [ka, kb] = [keyOf(a), keyOf(b)];
  const [ra, rb] = [parseCaseKey(ka), parseCaseKey(kb)];
  if (ra && rb) {
    const na = ra.task === 'backward' ? ra.number : ra.issue;
    const nb = rb.task === 'backward' ? rb.number : rb.issue;
    const pa = ra.task === 'backward' ? -1 : ra.pull;
    const pb = rb.task === 'backward' ? -1 : rb.pull;
    const order = (ra.repo < rb.repo ? -1 : ra.repo > rb.repo ? 1 : 0) || na - nb || pa - pb;
    if (order !== 0) return order;
  }
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** The reviewable cases of the scope; with `includeCandidates` also the rules' candidates. */
export function reviewCases(store: Store, scope: CaseScope & { readonly includeCandidates?: boolean } = {}): ReviewCase[] {
  return lookupCases(store, scope).flatMap((l) =>
    l.kind === 'reviewable' && (l.case.screenDecision === 'review' || scope.includeCandidates) ? [l.case] : [],
  );
}

/** Every known case by case key and by case id. */
export function indexCases(store: Store): CaseIndex {
  const byKey = new Map<string, CaseLookup>();
  const byId = new Map<string, CaseLookup>();
  for (const l of lookupCases(store)) {
    const key = l.kind === 'reviewable' ? l.case.caseKey : l.caseKey;
    const id = l.kind === 'reviewable' ? l.case.caseId : l.caseId;
    byKey.set(key, l);
    if (id) byId.set(id, l);
  }
  return { byKey, byId };
}
