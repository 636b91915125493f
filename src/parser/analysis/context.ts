/**
 * What the statement checks of `analysis/` read and write while the analyzer
 * reads a line: the text, where the line is, the tables later lines depend on
 * (blocks, semantic state, functions, deferred names, connectors), and the
 * reporting of a finding at a range of the line. The analyzer (../analyzer.ts)
 * is the one implementation.
 */
import type { BlockStack, Site } from '../blocks';
import type { ExpressionHost } from '../expressions';
import type { AppendList } from '../layered';
import type { FunctionInfo, PendingCall } from '../pendingCalls';
import type { Reporter, TokenFinding } from '../reporter';
import type { Token } from '../scanner';
import type { Semantics } from '../semantics';

export interface AnalysisContext extends ExpressionHost {
  /** The text being read: token offsets are offsets in it. */
  readonly src: string;
  /** The current line: its number (1-based) and where it starts and ends in `src`. */
  readonly lineNo: number;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly rep: Reporter;
  readonly blocks: BlockStack;
  readonly sem: Semantics;
  /** The functions defined so far, by name. */
  readonly functions: Map<string, FunctionInfo>;
  /** Calls of names that are not commands, resolved at the end of the file. */
  readonly pending: AppendList<PendingCall>;
  /** Names assigned an avapConnector(): their method calls are allowed. */
  readonly connectors: Set<string>;
  /** The 1-based column of an offset on the current line. */
  col(offset: number): number;
  /** Reports a finding spanning the tokens `from` … `to` of the current line. */
  reportTokens(finding: TokenFinding): void;
  /** Where a finding about the tokens `t` … `endToken` of the current line goes. */
  site(t: Token, endToken?: Token): Site;
}
