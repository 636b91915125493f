/**
 * Adversarial program shapes (F5 and its kin): inputs whose cost once grew with
 * the product of two counts. The bench times each against a plain valid
 * program of the same size; the unit suite counts their work at N and 4N.
 */
export interface Shape {
  name: string;
  /** The program with `n` of its repeated units. */
  build: (n: number) => string;
  /** Written after the parser's work on F5 was done and never tuned on: the bench reports it apart. */
  heldOut?: boolean;
}

const lines = (parts: string[]) => `${parts.join('\n')}\n`;
/** 0 … n-1, each written with five digits: at N and 4N the names are equally long, only more. */
const range = (n: number) => Array.from({ length: n }, (_, i) => String(i).padStart(5, '0'));

export function adversarialShapes(): Shape[] {
  return [
    {
      // The shape: one-line functions, then calls to names no function has.
      name: 'F5: one-line functions, then calls to invented names',
      build: (n) =>
        lines([
          ...range(n).map((i) => `function helper${i}(a) { return(a) }`),
          ...range(n).map((i) => `r${i} = invented${i}(x)`),
        ]),
    },
    {
      name: 'F5 reversed: the calls first, the functions after them',
      build: (n) =>
        lines([
          ...range(n).map((i) => `r${i} = invented${i}(x)`),
          ...range(n).map((i) => `function helper${i}(a) { return(a) }`),
        ]),
    },
    {
      // Every call is one letter off a function: every search finds something.
      name: 'near misses: each call a typo of a defined function',
      build: (n) =>
        lines([
          ...range(n).map((i) => `function handler_${i}(a) {\n  return(a)\n}`),
          ...range(n).map((i) => `r${i} = handlr_${i}(x)`),
        ]),
    },
    {
      // Held out: long names, typos of them called inside expressions, in a function body each.
      name: 'held out: typos of long function names inside expressions',
      heldOut: true,
      build: (n) =>
        lines([
          ...range(n).map((i) => `function computeTotalForCustomerAccount${i}(a, b) {\n  return(a)\n}`),
          ...range(n).map((i) => `total${i} = 1 + computeTotalForCustomerAcount${i}(a, b)`),
        ]),
    },
    {
      // Held out: calls with the wrong number of arguments, each line with a fixable terminator.
      name: 'held out: wrong arities and a terminator on every line',
      heldOut: true,
      build: (n) =>
        lines([
          ...range(n).map((i) => `function pair${i}(a, b) {\n  return(a)\n}`),
          ...range(n).map((i) => `p${i} = pair${i}(a);`),
        ]),
    },
    {
      // Blocks never closed: every later statement sits under all of them.
      name: 'deep nesting: unclosed loops, then assignments and keys under them',
      build: (n) =>
        lines([
          ...range(n).map((i) => `startLoop(i${i}, 1, 2)`),
          ...range(n).map((i) => `v${i} = ${i}`),
          ...range(n).map((i) => `variableFromJSON(row, k${i}, k${i})`),
        ]),
    },
  ];
}
