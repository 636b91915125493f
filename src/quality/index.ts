/**
 * Answer quality, editor-free. The `QualityValidator` port and its adapters:
 *   createHeuristicValidator()                  patterns, no model
 *   createLlmJudge({llm, model, threshold})     one structured LLM call (grounding 0.5, specificity 0.3, actionability 0.2)
 *   createParserQualityValidator(validate)      code: the AVAP parser's verdict
 *   createLearnedValidator(model)               a trained model (linearModel / loadLinearModel)
 * and `qualityGate(validator, input, regenerate)`: one retry with the weakest dimension's hint.
 */
export * from './port';
export * from './rubric';
export { answerFeatures, foreignMarkersIn, type AnswerFeatures } from './features';
export { createHeuristicValidator, heuristicAssessment } from './heuristic';
export { createLlmJudge, judgeMessages, assessmentFromJudge, JUDGE_JSON_SCHEMA, JudgeAnswerSchema, JudgeAnswerContract, type JudgeAnswer } from './judge';
export { createParserQualityValidator, NO_CODE_HINT, type ParserValidateFn } from './parserQuality';
export { createLearnedValidator, linearModel, loadLinearModel, numericFeatures, FEATURE_NAMES, type LearnedModel, type LinearModelSpec } from './learned';
export { qualityGate, llmRegenerator, hintedRetryMessages, defaultAnswerMessages, gateFailure, QUALITY_RETRY_HEAD, DEFAULT_ANSWER_SYSTEM_PROMPT, type GateResult, type GateAttempt, type Regenerate } from './gate';
export { defaultQualityConfig, qualityConfigFromEnv, parseSwitch, parseThreshold, QualityConfigError, type QualityConfig } from './config';
export { runWithQuality, type AssistantLike, type QualityRunDeps, type QualityReport, type QualityRunResult } from './assistantRun';
