// The public API of harness-augment. Curated by hand: what is not listed here is internal.

export { canonicalJson } from './harness/canonical-json.js';
export { checkHarness } from './harness/check-harness.js';
export {
  type DocumentFormat,
  findForbiddenKeys,
  formatOf,
  type ParsedDocument,
  parseDocument,
  readDocument,
} from './harness/documents.js';
export { harnessJsonSchema } from './harness/harness-json-schema.js';
export { contentHash, type HarnessHashes, hashHarness } from './harness/hash.js';
export {
  evaluateHook,
  extractNumbers,
  type HookOutcome,
  type HookStep,
  runHooks,
} from './harness/hook-engine.js';
export {
  exportMcpTools,
  exportOpenAITools,
  importMcpTools,
  importOpenAITools,
  loadSkillsFolder,
  type McpTool,
  type McpToolsListResult,
  type OpenAIChatTool,
  parseSkillMarkdown,
  renderSkillMarkdown,
  type SkeletonOptions,
  safeImportMcpTools,
  safeImportOpenAITools,
  safeParseSkillMarkdown,
  skeletonHarness,
  skillName,
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
export { compileJsonSchema, validateAgainstSchema } from './harness/json-schema-validator.js';
export { offeredTools, skillLoaderTool, toChatCompletionTools } from './harness/offered-tools.js';
export { loadHarnessFile, parseHarness, safeParseHarness } from './harness/parse-harness.js';
export {
  formatList,
  formatSection,
  type RequestContext,
  renderSection,
  renderSystemPrompt,
  templateData,
} from './harness/render-prompt.js';
export {
  checkStages,
  type Harness,
  type HarnessInput,
  type HarnessPartName,
  HarnessSchema,
  type HeadingStyle,
  type ListStyle,
  type Hook,
  type HookAction,
  HookActionSchema,
  type HookCheck,
  HookCheckSchema,
  HookSchema,
  type HookStage,
  harnessPartNames,
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
  findMentions,
  harnessSymbols,
  harnessTextLocations,
  isDistinctiveIdentifier,
  type Mention,
  mentionsOf,
  type SymbolEntry,
  type SymbolKind,
  type SymbolTable,
  type TextLocation,
} from './harness/symbol-table.js';
export { checkTemplate, renderTemplate, templateHelpers } from './harness/template-engine.js';
export { type JsonlRecord, parseJsonlLine, readJsonl } from './trajectory/read-jsonl.js';
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
  type TrajectoryStats,
  type TrajectoryValidation,
  type ValidateTrajectoryOptions,
  validateTrajectory,
} from './trajectory/validate-trajectory.js';
export { version } from './version.js';
