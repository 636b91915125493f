import { CATALOGUE_VERSION } from './catalogue';

/**
 * Version of the validity rules implemented in code. Bump it whenever a change
 * makes some program change verdict (valid ↔ invalid) or trace shape.
 */
export const RULES_VERSION = '1.0.0';

/**
 * Fingerprint (SHA-256 of the catalogue JSON file) that this PARSER_VERSION was
 * released with. A unit test recomputes it: editing the catalogue without bumping
 * `catalogueVersion` fails the build, so the version always moves with validity.
 */
export const CATALOGUE_FINGERPRINT = 'd25bf7f11492e514b0ade27bb519b0060138fd2b788d01e409f9fabd75aa70a6';

/** Reported by the parser, the gRPC service, telemetry and evaluation reports. */
export const PARSER_VERSION = `avap-parser/${RULES_VERSION}+catalogue.${CATALOGUE_VERSION}`;
