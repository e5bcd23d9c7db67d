import {
  applicableBlockers,
  backwardBlockers,
  backwardCaseId,
  backwardRecord,
  forwardBlockers,
  forwardRecord,
  reviewState,
  tierOf,
  type BackwardInputs,
  type ForwardInputs,
  type Selection,
  type BackwardDerived,
  NO_DERIVED,
} from '../export/records.js';
import type { Blocker } from '../model/admission.js';
import { backwardBaselines, BASELINE_VERSIONS } from '../baselines/index.js';
import { RepoHistory } from '../baselines/history.js';
import { backwardLabels } from '../labels/backward.js';
import { LABEL_RULES_VERSION, type ComponentMap } from '../labels/rules.js';
import { pairKey } from '../forward/link-rules.js';
import { backwardDigestOfRows, forwardDigestOfCase } from '../review/digest.js';
import { backwardCaseKey, forwardCaseKey } from '../review/keys.js';
import { reviewStanding } from '../review/status.js';
import type { AdmissionRow } from '../store/tables/admission.js';
import { canonicalJson } from '../util/canonical.js';
import { repoConfig } from '../config.js';
import { planItem } from './plan.js';
import type { ItemOutcome, PlannedItem, Stage, StageContext } from './types.js';

/** Review overrides of a case's labels on its current inputs: [label, {value, reviewer, reason}], sorted. */
export type OverrideList = [string, { value: string; reviewer: string; reason: string }][];

/** The rule versions the derived data (baselines, labels) depends on besides the inputs. */
type DerivedVersions = typeof DERIVED_VERSIONS;

export type AdmitItem =
  | {
      readonly task: 'backward';
      readonly inputs: BackwardInputs;
      readonly selection: Selection;
      readonly overrides: OverrideList;
      /** The repository's configured components (component labels); null when none. */
      readonly components: ComponentMap | null;
      readonly derived: DerivedVersions;
    }
  | { readonly task: 'forward'; readonly inputs: ForwardInputs; readonly selection: Selection; readonly overrides: OverrideList; readonly derived: DerivedVersions };

/** The label overrides that count for a case (none before it has a review digest). */
function overridesOf(store: StageContext['store'], caseKey: string, digest: string | null): OverrideList {
  return digest ? store.labelOverrides.current(caseKey, digest) : [];
}

/** The selection a run admits under: `r2v run --require-review --require-isolation`. */
export function selectionOf(ctx: Pick<StageContext, 'options'>): Selection {
  return { requireReview: ctx.options.requireReview === true, requireIsolation: ctx.options.requireIsolation === true };
}

/** Every Backward thread that reached attribution (one attribution at least, or a case row). */
export function gatherBackward(store: StageContext['store'], repo: string): BackwardInputs[] {
  const sources = store.sources;
  const tables = store.backward;
  const probes = store.probes;
  const ledger = store.review;
  const out: BackwardInputs[] = [];
  for (const number of tables.screenedThreads(repo)) {
    const attributions = tables.attributions(repo, number);
    const record = tables.caseOf(repo, number) ?? null;
    const text = tables.textScreen(repo, number) ?? null;
    // A thread with no bisect vocabulary at all is not a candidate; one whose localization was
    // incomplete (range only, skipped bisect, …) is, and its rejection is reported.
    const onlyNoAttribution = !text || text.reasons.every((r) => r.code === 'no-attribution');
    if (attributions.length === 0 && !record && onlyNoAttribution) continue;
    const thread = sources.thread(repo, number);
    const comments = [...sources.comments(repo, number)].sort((a, b) =>
      a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.commentId - b.commentId,
    );
    const issueUrl = thread?.htmlUrl ?? record?.reportUrl ?? `https://github.com/${repo}/issues/${number}`;
    const report = tables.report(repo, number) ?? null;
    const digest = backwardDigestOfRows({ report, record, attributions });
    out.push({
      repo,
      number,
      issueUrl,
      text,
      attributions,
      postUrls: [issueUrl, ...comments.map((c) => c.htmlUrl ?? `${issueUrl}#issuecomment-${c.commentId}`)],
      record,
      checks: tables.checks(repo, number),
      report,
      screen: tables.screen(repo, number) ?? null,
      probe: record?.caseId ? probes.verdictFor(record.caseId) : null,
      review: reviewState(digest ? reviewStanding(ledger.entries(backwardCaseKey(repo, number)), digest).status : 'pending'),
    });
  }
  return out;
}

/** Every Forward issue–PR pair of the repository, with the digests of its gold's inputs. */
export function gatherForward(store: StageContext['store'], repo: string): ForwardInputs[] {
  const forward = store.forward;
  const ledger = store.review;
  const out: ForwardInputs[] = [];
  for (const c of forward.iterateCases([repo])) {
    const gold = c.gold !== null ? forward.gold(c.repo, c.issue, c.pull) : undefined;
    const digest = forwardDigestOfCase(c);
    const review = reviewState(digest ? reviewStanding(ledger.entries(forwardCaseKey(c.repo, c.issue, c.pull)), digest).status : 'pending');
    out.push({ case: c, goldDigests: gold ? { ...gold.inputDigests } : null, review });
  }
  return out;
}

function outcome(row: AdmissionRow, sel: Selection): ItemOutcome {
  const save = (store: StageContext['store']): void => store.admission.replace(row);
  const blocking = applicableBlockers(row.blockers, sel);
  if (blocking.length === 0) return { status: 'done', save };
  const codes = [...new Set(blocking.map((b) => b.code))].join(',');
  return { status: 'rejected', reason: tierOf(row.blockers, sel) === 'candidate' ? `candidate:${codes}` : codes, save };
}

const treeMissing = (what: string, sha: string): Blocker => ({
  gate: 'always',
  stage: 'admit',
  code: 'tree-missing',
  evidence: `${what} ${sha} is not a commit of the mirror`,
});

const admissible = (blockers: readonly Blocker[]): boolean => !blockers.some((b) => b.gate === 'always');

/** What the records' derived data depends on besides the inputs: the rule versions. */
const DERIVED_VERSIONS = { baselines: BASELINE_VERSIONS, labels: LABEL_RULES_VERSION };

/** The repository's visible-history index, built once per run and shared by all its cases. */
export function historyOf(ctx: StageContext, repo: string, gitDir: string): RepoHistory {
  const key = repo.toLowerCase();
  let history = ctx.caches.baselineHistories.get(key);
  if (!history) {
    history = new RepoHistory(gitDir);
    ctx.caches.baselineHistories.set(key, history);
  }
  return history;
}

/** Baselines and history-based labels of a Backward case with a resolved gold, cutoff and report. */
async function deriveBackward(ctx: StageContext, inputs: BackwardInputs, components: ComponentMap | null): Promise<BackwardDerived> {
  const r = inputs.record;
  if (!r?.cutoff || !r.gold || !inputs.report) return NO_DERIVED;
  const handle = await ctx.git.get(inputs.repo);
  const history = historyOf(ctx, inputs.repo, handle.gitDir);
  await history.ensure(r.cutoff);
  const input = { cutoff: r.cutoff, gold: r.gold, report: inputs.report.text };
  return { baselines: backwardBaselines(history, input), ...backwardLabels(history, input, components ?? undefined) };
}

/**
 * The final gate. Backward: an accepted attribution, one resolved gold, every structural check
 * passed, a leak-free sanitized report with a symptom, the screen's candidate decision (or a
 * human accept), and when required a human accept and a verified probe. Forward: linked, gold
 * computed, no flag left open (or a human accept). Each case keeps its frozen manifest record
 * and every blocker with its gate, so export can apply any selection without re-running.
 */
export const admitStage: Stage<AdmitItem> = {
  name: 'admit',
  version: 3,
  needs: ['screen', 'forward-screen', 'probe'],
  description: 'final admission gate per case; freezes the manifest record with every blocking reason',
  plan(ctx, repos) {
    const selection = selectionOf(ctx);
    const items: PlannedItem<AdmitItem>[] = [];
    for (const repo of repos) {
      const components = repoConfig(ctx.config, repo)?.components ?? null;
      for (const inputs of gatherBackward(ctx.store, repo)) {
        const digest = backwardDigestOfRows({ report: inputs.report, record: inputs.record, attributions: inputs.attributions });
        const overrides = overridesOf(ctx.store, backwardCaseKey(repo, inputs.number), digest);
        items.push(planItem(`backward:${repo}#${inputs.number}`, repo, { task: 'backward', inputs, selection, overrides, components, derived: DERIVED_VERSIONS }));
      }
      for (const inputs of gatherForward(ctx.store, repo)) {
        const c = inputs.case;
        const overrides = overridesOf(ctx.store, forwardCaseKey(repo, c.issue, c.pull), forwardDigestOfCase(c));
        items.push(planItem(`forward:${pairKey(repo, c.issue, c.pull)}`, repo, { task: 'forward', inputs, selection, overrides, derived: DERIVED_VERSIONS }));
      }
    }
    return items;
  },
  async process(item, ctx) {
    const it = item.input;
    if (it.task === 'backward') {
      const inputs = it.inputs;
      const blockers = backwardBlockers(inputs);
      const cutoff = inputs.record?.cutoff ?? null;
      let tree: string | null = null;
      if (admissible(blockers) && cutoff) {
        const handle = await ctx.git.get(inputs.repo);
        tree = (await handle.objects.commit(cutoff))?.tree ?? null;
        if (tree === null) blockers.push(treeMissing('cutoff', cutoff));
      }
      const derived = admissible(blockers) ? await deriveBackward(ctx, inputs, it.components) : NO_DERIVED;
      const record = backwardRecord(inputs, tree, derived, new Map(it.overrides));
      return outcome({
        task: 'backward',
        itemKey: item.key,
        caseId: backwardCaseId(inputs),
        repo: inputs.repo,
        number: inputs.number,
        pull: null,
        record: canonicalJson(record),
        blockers,
      }, it.selection);
    }
    const inputs = it.inputs;
    const c = inputs.case;
    const blockers = forwardBlockers(inputs);
    let tree: string | null = null;
    if (admissible(blockers) && c.base) {
      const handle = await ctx.git.get(c.repo);
      tree = (await handle.objects.commit(c.base))?.tree ?? null;
      if (tree === null) blockers.push(treeMissing('base', c.base));
    }
    return outcome({
      task: 'forward',
      itemKey: item.key,
      caseId: c.case_id,
      repo: c.repo,
      number: c.issue,
      pull: c.pull,
      record: canonicalJson(forwardRecord(inputs, tree, new Map(it.overrides))),
      blockers,
    }, it.selection);
  },
};
