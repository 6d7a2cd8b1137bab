// harness-augment: the kernel — the harness (parse, validate, render, hash, import), trajectories (parse,
// validate, relabel, collapse), the operator contract and the built-in operators, plans, policies, presets and
// the registry, augmentation and the variant pool, and the certificate. Curated by hand: what is not listed
// here is internal. Each layer above the kernel is a subpath of its own (see docs/api/README.md):
// `harness-augment/kit`, `/testing`, `/bench`, `/runtime`, `/scenarios`, `/pipeline`, `/adapters`, `/demo`.

export {
  builtinOperators,
  hookOperators,
  promptOperators,
  skillContentOperators,
  skillIdOperators,
  toolOperators,
} from '../perturbations/index.js';
export { planApplicability } from './augment/applicability.js';
export {
  type AugmentInput,
  type AugmentOptions,
  type AugmentReject,
  type AugmentRow,
  augment,
  augmentExample,
  type ExampleResult,
  type Provenance,
  variantPoolFor,
} from './augment/augment.js';
export { type AugmentRun, createAugmentRun } from './augment/augment-run.js';
export {
  type Certificate,
  type CertificateProof,
  type CertifyInput,
  certify,
} from './augment/certificate.js';
export { checkContentPreservation } from './augment/content-preservation.js';
export { type EntryProof, proveEntry } from './augment/entry-proof.js';
export {
  type AppliedOperator,
  type ApplyOptions,
  applyOperator,
  type Dimension,
  defineOperator,
  dimensions,
  type Enforcement,
  type Operator,
  type OperatorContext,
  type OperatorOutput,
  type OperatorRecord,
  type OperatorSkip,
  type OperatorSpec,
  type PreservationMode,
  type RegenerateFunction,
  type RegenerateRequest,
  unchanged,
} from './augment/operator.js';
export {
  identityPlan,
  kOf,
  oneOf,
  op,
  type Plan,
  type PlannedOperator,
  pipe,
  sometimes,
} from './augment/plan.js';
export {
  compileDimensionPlans,
  compilePolicy,
  loadPolicyFile,
  type Policy,
  type PolicyInput,
  PolicySchema,
  parsePolicy,
} from './augment/policy.js';
export { presets } from './augment/presets.js';
export { createRandom, type Random } from './augment/random.js';
export { createRegistry, type Registry } from './augment/registry.js';
export { type ResolvedPolicy, type ResolvePolicyOptions, resolvePolicy } from './augment/resolve-policy.js';
export { keepsEnforcement, type RunnablePlan, runnablePlan } from './augment/runnable-plan.js';
export { augmentBounds, checkAugmentBounds } from './augment/size-bound.js';
export {
  createVariantPool,
  type PoolProvenance,
  type VariantPool,
  type VariantPoolOptions,
} from './augment/variant-pool.js';
export { readAugmentedRows, type SidecarLine, SidecarLineSchema } from './augment/variant-sidecar.js';
export { canonicalJson } from './harness/canonical-json.js';
export { type CheckHarnessOptions, checkHarness } from './harness/check-harness.js';
export {
  type DocumentFormat,
  type ParsedDocument,
  parseDocument,
  type ReadDocumentOptions,
  readDocument,
} from './harness/documents.js';
export { harnessJsonSchema } from './harness/harness-json-schema.js';
export { contentHash, type HarnessHashes, hashHarness } from './harness/hash.js';
export {
  type CustomHookCheck,
  type CustomHookCheckSpec,
  createHookCheckRegistry,
  defineHookCheck,
  type HookCheckFailure,
  type HookCheckMention,
  type HookCheckRegistry,
  noHookChecks,
} from './harness/hook-checks.js';
export {
  type DecideHooksOptions,
  decideHooks,
  decideReplyHooks,
  type HookConsequence,
  type HookFailure,
  type HookStageDecision,
  type HookTurnEnd,
} from './harness/hook-decision.js';
export { evaluateHook, type HookOutcome, type HookStep, runHooks } from './harness/hook-engine.js';
export {
  exportMcpTools,
  exportOpenAITools,
  importMcpTools,
  importOpenAITools,
  loadSkillsFolder,
  type McpTool,
  type McpToolsListResult,
  type OpenAIChatTool,
  type OpenAIToolsRead,
  parseSkillMarkdown,
  readOpenAITools,
  readSkillsFolder,
  renderSkillMarkdown,
  type SkeletonOptions,
  safeImportMcpTools,
  safeImportOpenAITools,
  safeParseSkillMarkdown,
  safeReadOpenAITools,
  skeletonHarness,
  skillName,
  type TypeNameRead,
  writeSkillsFolder,
} from './harness/importers/index.js';
export {
  formatIssue,
  formatPath,
  HarnessAugmentError,
  type Issue,
  type JsonPath,
  type SafeResult,
} from './harness/issues.js';
export { compileJsonSchema, schemaDialect, validateAgainstSchema } from './harness/json-schema-validator.js';
export { compileLinearPattern } from './harness/linear-pattern.js';
export { offeredTools, skillLoaderTool, toChatCompletionTools } from './harness/offered-tools.js';
export { loadHarnessFile, parseHarness, safeParseHarness } from './harness/parse-harness.js';
export { type RequestContext, renderSystemPrompt } from './harness/render-prompt.js';
export {
  createRunContext,
  defaultRunMemoryBytes,
  type RunContext,
  type RunContextOptions,
  type RunMemoryReport,
} from './harness/run-context.js';
export {
  type Harness,
  type HarnessInput,
  type HarnessPartName,
  HarnessSchema,
  type HeadingStyle,
  type Hook,
  type HookAction,
  HookActionSchema,
  type HookCheck,
  HookCheckSchema,
  HookSchema,
  type HookStage,
  type ListStyle,
  type PromptSection,
  PromptSectionSchema,
  type Skill,
  type SkillLoader,
  SkillSchema,
  type Tool,
  ToolSchema,
} from './harness/schema.js';
export {
  buildSymbolTable,
  type SymbolEntry,
  type SymbolKind,
  type SymbolTable,
} from './harness/symbol-table.js';
export { checkTemplate, renderTemplate, templateHelpers } from './harness/template-engine.js';
export { stringifyYaml } from './harness/yaml-text.js';
export {
  type CollapseResult,
  type CollapseSampleOptions,
  collapseHookRetries,
  collapseHookRetriesSample,
  keepsFullTrace,
  type SampledCollapseResult,
} from './trajectory/collapse-hook-retries.js';
export {
  type ImportLogOptions,
  type ImportLogResult,
  type ImportRepairs,
  importLogLine,
  importLogRecord,
  type LogAliases,
  LogAliasesSchema,
  type LogReject,
} from './trajectory/import-logs.js';
export { type JsonlRecord, parseJsonlLine, readJsonl } from './trajectory/read-jsonl.js';
export {
  type ArgumentRename,
  forwardTrajectory,
  inverseTrajectory,
  invertOutput,
  type LoaderNames,
  type Relabel,
  type RelabelStep,
  relabelMessages,
} from './trajectory/relabel.js';
export {
  type AssistantMessage,
  type HookEvent,
  HookEventSchema,
  type Message,
  MessageSchema,
  type OfferedTool,
  type ToolCall,
  type ToolMessage,
  type Trajectory,
  TrajectorySchema,
} from './trajectory/schema.js';
export {
  type TrajectoriesFileReport,
  validateTrajectoriesFile,
} from './trajectory/validate-trajectories-file.js';
export {
  type HookDecision,
  type Rederived,
  rederiveTrajectory,
  type TrajectoryStats,
  type TrajectoryValidation,
  type ValidateTrajectoryOptions,
  validateTrajectory,
} from './trajectory/validate-trajectory.js';
export { proveWalk, type WalkProof } from './trajectory/walk-by-proof.js';
export { version } from './version.js';
