// Teacher adapters for the SFT stage.
export { type OpenAICompatibleTeacherOptions, openAICompatibleTeacher } from './openai-compatible.js';
export { oracleTeacher } from './oracle.js';
export { replayTeacher } from './replay.js';
