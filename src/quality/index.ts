/**
 * Answer quality, editor-free. The `QualityValidator` port and its adapter,
 *   createLlmJudge({llm, model, threshold})     one structured LLM call (grounding 0.5, specificity 0.3, actionability 0.2)
 * `qualityGate(validator, input, regenerate)`: one retry with the weakest dimension's hint; and the answer
 * features (`answerFeatures`, `numericFeatures`) that `export --features` writes with each training signal.
 */
export * from './port';
export * from './rubric';
export { answerFeatures, numericFeatures, /** @internal */ FEATURE_NAMES } from './features';
export { createLlmJudge, /** @internal */ JUDGE_JSON_SCHEMA, /** @internal */ JUDGE_SYSTEM_HEADER } from './judge';
export {
  /** @internal */ qualityGate,
  /** @internal */ hintedRetryMessages,
  /** @internal */ gateFailure,
  /** @internal */ QUALITY_RETRY_HEAD,
  type Regenerate,
} from './gate';
export {
  /** @internal */ defaultQualityConfig,
  qualityConfigFromEnv,
  parseSwitch,
  parseThreshold,
  QualityConfigError,
  type QualityConfig,
} from './config';
export { runWithQuality, type AssistantLike, type QualityRunDeps, type QualityReport } from './assistantRun';
