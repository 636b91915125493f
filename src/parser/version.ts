import { CATALOGUE_VERSION } from './catalogue';

/**
 * Version of the validity rules implemented in code. Bump it whenever a change
 * makes some program change verdict (valid ↔ invalid) or trace shape.
 * 1.1.0: entries may carry a proven `fix` (text edits); no verdict changed.
 * 1.2.0: typographic quotes used as string quotes are errors (such programs
 *        turn invalid); semantic warnings (key-names-variable,
 *        key-overwritten-in-loop, literal-stored-as-text) with proven fixes,
 *        also on valid code.
 * 1.3.0: no verdict changed; fewer fixes (issue 24, F10): a rewrite or rename
 *        of an invented command only where the catalogue maps its arguments
 *        one-to-one, `!x == y` → `(not x) == y`, if() conditions that are not
 *        a plain name or literal compared → the expression form, `except
 *        ValueError` not rewritten, addVar's true/false fixed as True/False,
 *        and no quoting fix for the key warnings (quoting changes nothing at
 *        run time; issues 26, 31). Messages of the key and literal-call
 *        warnings say what the specification and the reference each do.
 */
export const RULES_VERSION = '1.3.0';

/**
 * Fingerprint (SHA-256 of the catalogue JSON file) that this PARSER_VERSION was
 * released with. A unit test recomputes it: editing the catalogue without bumping
 * `catalogueVersion` fails the build, so the version always moves with validity.
 */
export const CATALOGUE_FINGERPRINT = '44bbf5904e5068e4ba7b76edc00df5a7c5510ecc3ae6c7cd7d7a71898f4d408d';

/** Reported by the parser, the gRPC service, telemetry and evaluation reports. */
export const PARSER_VERSION = `avap-parser/${RULES_VERSION}+catalogue.${CATALOGUE_VERSION}`;
