import { CATALOGUE_VERSION } from './catalogue';

/**
 * Version of the validity rules implemented in code. Bump it whenever a change
 * makes some program change verdict (valid ↔ invalid) or trace shape.
 * 1.1.0: entries may carry a proven `fix` (text edits); no verdict changed.
 */
export const RULES_VERSION = '1.1.0';

/**
 * Fingerprint (SHA-256 of the catalogue JSON file) that this PARSER_VERSION was
 * released with. A unit test recomputes it: editing the catalogue without bumping
 * `catalogueVersion` fails the build, so the version always moves with validity.
 */
export const CATALOGUE_FINGERPRINT = '668f508f3111ce870ff4640cca84c7a6d3970d30fd3dfe903e224a01db2a608b';

/** Reported by the parser, the gRPC service, telemetry and evaluation reports. */
export const PARSER_VERSION = `avap-parser/${RULES_VERSION}+catalogue.${CATALOGUE_VERSION}`;
