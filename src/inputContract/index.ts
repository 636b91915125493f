/**
 * Contracts for structured input, editor-free and shared by every layer above
 * it: a zod schema as the single definition, its JSON schema (language-model
 * tools, Ollama's `format`, OpenAPI) and `preValidate`, the one gate that
 * turns an invalid input into `{valid: false, error, suggestions}` for
 * whoever produced it. Used by the language-model tools, the REST bodies and
 * the judge's structured output.
 */
export {
  defineContract,
  jsonSchemaOf,
  preValidate,
  preValidateJsonText,
  type InputContract,
  type InvalidInput,
  type PreValidation,
  type SemanticProblem,
} from './inputContract';
