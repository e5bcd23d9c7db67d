/**
 * The GitHub Actions routing evaluator: which workflow files a pull-request event activates.
 * Semantics: ../../docs/ROUTING-EVALUATOR.md (a summary of the researched model, with the
 * decisions taken on the points public sources leave open).
 */
export {
  EVALUATOR_ID,
  DEFAULT_TYPES,
  DIFF_LIMIT,
  CompiledWorkflows,
  compileWorkflows,
  isWorkflowPath,
  route,
  type InvalidWorkflow,
  type PredicateExplain,
  type PredicateName,
  type RouteContext,
  type RouteResult,
  type Router,
  type TriggerExplain,
  type WorkflowExplain,
  type WorkflowFile,
} from './evaluate.js';
export { compilePattern, matchList, PatternError, type CompiledPattern, type ListMatch } from './pattern.js';
export { parseWorkflow, TRIGGER_EVENTS, type InvalidCode, type ParsedWorkflow, type TriggerEvent, type TriggerSpec } from './parse.js';
