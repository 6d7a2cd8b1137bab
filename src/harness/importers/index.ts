// The public surface of the importers: MCP tools, OpenAI tools, Agent Skills SKILL.md, and a skeleton harness.
export {
  type LoadSkillsOptions,
  loadSkillsFolder,
  parseSkillMarkdown,
  type RenderSkillOptions,
  readSkillsFolder,
  renderSkillMarkdown,
  type SkillsFolder,
  safeParseSkillMarkdown,
  skillMetadataKeys,
  skillName,
  writeSkillsFolder,
} from './agent-skills.js';
export {
  exportMcpTools,
  importMcpTools,
  type McpTool,
  type McpToolAnnotations,
  type McpToolsListResult,
  safeImportMcpTools,
} from './mcp-tools.js';
export {
  exportOpenAITools,
  importOpenAITools,
  type OpenAIChatTool,
  type OpenAIToolsRead,
  readOpenAITools,
  safeImportOpenAITools,
  safeReadOpenAITools,
} from './openai-tools.js';
export type { TypeNameRead } from './schema-type-names.js';
export { type SkeletonOptions, skeletonHarness } from './skeleton.js';
