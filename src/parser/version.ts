import { CATALOGUE_VERSION } from './catalogue';

/**
 * Version of the validity rules implemented in code. Bump it whenever a change
 * makes some program change verdict (valid ↔ invalid) or trace shape.
 * 1.1.0: entries may carry a proven `fix` (text edits); no verdict changed.
 * 1.2.0: typographic quotes used as string quotes are errors (such programs
 *        turn invalid); semantic warnings (key-names-variable,
 *        key-overwritten-in-loop, literal-stored-as-text) with proven fixes,
 *        also on valid code.
 * 1.3.0: no verdict changed; fewer fixes: a rewrite or rename
 *        of an invented command only where the catalogue maps its arguments
 *        one-to-one, `!x == y` → `(not x) == y`, if() conditions that are not
 *        a plain name or literal compared → the expression form, `except
 *        ValueError` not rewritten, addVar's true/false fixed as True/False,
 *        and no quoting fix for the key warnings (quoting changes nothing at
 *        run time: docs/semantics.md, Quotes). Messages of the key and literal-call
 *        warnings say what the specification and the reference each do.
 * 1.4.0: `xs.append(x)` is a foreign method (Python), as `.push` is: such
 *        programs turn invalid (the runtime refuses the line), with the fix
 *        variableToList(x, xs). New proven fixes: stray closers,
 *        else()/exception() after an early end(), strings and calls left open
 *        at the end of a line, counted while loops, loops over a list
 *        (foreach, for-in with a closer, enumerate, forEach, startLoop(x, xs)),
 *        print/console.log/fmt.Println as addResult, invented names whose words
 *        say what they do, calls missing only their omittable arguments, key
 *        assignments, ternaries, docstrings and closing words of other
 *        languages; `x == null` in a translated condition compares with None.
 *        Fewer guesses: a call's missing value is never written empty
 *        (`addVar(x)` gets no fix), and a target is named after a key only when
 *        the key is quoted and the name is read elsewhere.
 */
const RULES_VERSION = '1.4.0';

/**
 * Fingerprint (SHA-256 of the catalogue JSON file) that this PARSER_VERSION was
 * released with. A unit test recomputes it: editing the catalogue without bumping
 * `catalogueVersion` fails the build, so the version always moves with validity.
 * @internal
 */
export const CATALOGUE_FINGERPRINT = '80985bd035f5c742a6030a813a71ebe6f279f8ce487a8c9729808086c6560d27';

/** Reported by the parser, the gRPC service, telemetry and evaluation reports. */
export const PARSER_VERSION = `avap-parser/${RULES_VERSION}+catalogue.${CATALOGUE_VERSION}`;
