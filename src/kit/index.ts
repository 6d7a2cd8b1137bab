// harness-augment/kit: the operator author's kit. Everything a perturbation operator is written with — the
// built-in operators under perturbations/ import nothing else from this library (test/architecture
// enforces it) — and the law suite and golden harness that test one. See docs/authoring-operators.md.

export { type Certificate, certify } from '../augment/certificate.js';
// ── The kit's own helpers, one job per module ───────────────────────────────────────────────────────────
export {
  type CaseStyle,
  caseStyleOf,
  formatWords,
  identifierWords,
  singularWord,
} from '../augment/identifier-words.js';
export {
  enumerationOf,
  type ListMeaning,
  type ListShape,
  lastWords,
  leansOnPrevious,
  listMeaning,
  pinnedItems,
  pronounReferringBack,
  templateLeadIn,
  withoutClosingDecoration,
} from '../augment/list-meaning.js';
export { namesQuotedAsWords } from '../augment/literal-words.js';
export { type Script, scripts, skillWord, translateWord, wordJoiner } from '../augment/name-lexicon.js';
export {
  checkNewNames,
  definingWords,
  domainTerms,
  functionWords,
  kindNouns,
  type NamedIdentifier,
  type NamedKind,
  type NameJudge,
  nameJudge,
  nameSynonyms,
  sameWord,
} from '../augment/name-meaning.js';
// ── The operator contract and the core it works on (also in the public root) ────────────────────────────
export {
  type AppliedOperator,
  applyOperator,
  applyOperatorSync,
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
} from '../augment/operator.js';
export { isFullSentence, listKeepsOrder, type OrderedList, orderedLists } from '../augment/ordered-lists.js';
export {
  type ProtectedContentSpan,
  type ProtectedContentSpanKind,
  protectedContentSpans,
} from '../augment/protected-content.js';
export { createRandom, type Random } from '../augment/random.js';
export {
  type ParameterRename,
  renameSymbols,
  type SymbolRenames,
  toolTitleFollows,
} from '../augment/rename-symbols.js';
export {
  namePatternsWritten,
  parameterNamesInReplies,
  plainToolNamesWritten,
  trajectoryReplies,
} from '../augment/unfollowable-names.js';
export { inVocabulary, VocabularyParam, withinVocabulary } from '../augment/vocabulary.js';
export { BoundedCache } from '../harness/bounded-cache.js';
export type { HookCheckRegistry } from '../harness/hook-checks.js';
export { extractNumbers, hookRunsOn } from '../harness/hook-engine.js';
export { HarnessAugmentError, type JsonPath } from '../harness/issues.js';
export { mentionStandsAlone } from '../harness/mention-boundary.js';
export { safeParseHarness, variantHolds } from '../harness/parse-harness.js';
export { renderSystemPrompt } from '../harness/render-prompt.js';
export type { RunContext } from '../harness/run-context.js';
export {
  type Harness,
  HeadingStyleSchema,
  type Hook,
  type HookCheck,
  type HookStage,
  ListStyleSchema,
  type PromptSection,
  type Skill,
  type Tool,
} from '../harness/schema.js';
export {
  hasPlainProperties,
  isRecord,
  nodeAt,
  type SchemaNode,
  type SubschemaPlace,
  walkSchema,
  walkSubschemas,
} from '../harness/schema-walk.js';
export {
  buildSymbolTable,
  findMentions,
  harnessSymbols,
  harnessTextLocations,
  namedByKindWord,
  type SymbolEntry,
} from '../harness/symbol-table.js';
export { templatePlaceholderSpans } from '../harness/template-placeholders.js';
export { type TextIndex, textIndex, wordOccurrence } from '../harness/text-index.js';
export { forwardFacts, type ValidationFacts, validationFacts } from '../trajectory/facts.js';
// ── Edits: positional text edits and the raw-JSON reader of tool-call arguments ─────────────────────────
export {
  applyEdits,
  membersAt,
  parseRawJson,
  type RawJsonNode,
  type TextEdit,
} from '../trajectory/raw-json.js';
export {
  composeRelabels,
  forwardTrajectory,
  identityRelabel,
  type Relabel,
  type RelabelStep,
} from '../trajectory/relabel.js';
export type { Message, Trajectory } from '../trajectory/schema.js';
export {
  type HookDecision,
  validateTrajectory,
  walkHookDecisions,
} from '../trajectory/validate-trajectory.js';
export { forwardByProof } from '../trajectory/walk-by-proof.js';
export { type CertifiesInput, certifies } from './certify.js';
export { nameChecker, namePattern, takenNames } from './free-names.js';
// ── Testing an operator: the law suite (needs fast-check, loaded when it runs) and the golden harness ────
export {
  checkOperatorGolden,
  type GoldenCase,
  type GoldenFileOptions,
  type GoldenResult,
  operatorGolden,
} from './golden.js';
export {
  checkOperatorLaws,
  type LawCase,
  missingFastCheckMessage,
  type OperatorLawOptions,
  type OperatorLawReport,
  partsTouchedBy,
  randomLawCase,
} from './laws.js';
export {
  mentionedInFreeText,
  occursAsWord,
  parameterNamesInOtherTools,
  parameterNamesInProse,
  plainToolNamesInText,
  toolNamePatternsInText,
  unresolvedCodeNames,
} from './mentions.js';
export { firstClause, type NameRequest, type NameStyle, nameStyles, newName } from './new-name.js';
export { numbersInWords } from './number-words.js';
export { addedCount, affectedCount, severityBetween, severityStep } from './severity.js';
export {
  argumentKeysAt,
  type CallFact,
  rootArgumentKeys,
  trajectoryCalls,
  trajectoryFreeText,
} from './trajectory-facts.js';
