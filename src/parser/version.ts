import { CATALOGUE_VERSION } from './catalogue';

/**
 * Version of the validity rules implemented in code. Bump it whenever a change
 * makes some program change verdict (valid ↔ invalid) or trace shape.
 * 1.1.0: entries may carry a proven `fix` (text edits); no verdict changed.
 * 1.2.0: typographic quotes used as string quotes are errors (such programs
 *        turn invalid); semantic warnings (key-names-variable,
 *        key-overwritten-in-loop, literal-stored-as-text) with proven fixes,
 *        also on valid code.
 */
export const RULES_VERSION = '1.2.0';

/**
 * Fingerprint (SHA-256 of the catalogue JSON file) that this PARSER_VERSION was
 * released with. A unit test recomputes it: editing the catalogue without bumping
 * `catalogueVersion` fails the build, so the version always moves with validity.
 */
export const CATALOGUE_FINGERPRINT = 'd0496de5210c465cff9544febf01f32b264460242e77e485c6e8707add10d903';

/** Reported by the parser, the gRPC service, telemetry and evaluation reports. */
export const PARSER_VERSION = `avap-parser/${RULES_VERSION}+catalogue.${CATALOGUE_VERSION}`;
