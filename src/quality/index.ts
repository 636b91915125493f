/**
 * Answer quality, editor-free. The `QualityValidator` port and its adapter,
 *   createLlmJudge({llm, model, threshold})     one structured LLM call (grounding 0.5, specificity 0.3, actionability 0.2)
 * `qualityGate(validator, input, regenerate)`: one retry with the weakest dimension's hint; and the answer
 * features (`answerFeatures`, `numericFeatures`) that `export --features` writes with each training signal.
 */
export * from './port';
export * from './rubric';
export { answerFeatures, foreignMarkersIn, numericFeatures, FEATURE_NAMES, type AnswerFeatures } from './features';
export {
  createLlmJudge,
  judgeMessages,
  assessmentFromJudge,
  JUDGE_JSON_SCHEMA,
  JudgeAnswerSchema,
  JudgeAnswerContract,
  type JudgeAnswer,
} from './judge';
export {
  qualityGate,
  hintedRetryMessages,
  gateFailure,
  QUALITY_RETRY_HEAD,
  type GateResult,
  type GateAttempt,
  type Regenerate,
} from './gate';
export {
  defaultQualityConfig,
  qualityConfigFromEnv,
  parseSwitch,
  parseThreshold,
  QualityConfigError,
  type QualityConfig,
} from './config';
export {
  runWithQuality,
  type AssistantLike,
  type QualityRunDeps,
  type QualityReport,
  type QualityRunResult,
} from './assistantRun';
