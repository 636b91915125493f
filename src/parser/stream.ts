/**
 * A program analysed line by line as its lines arrive (a model's answer,
 * streamed): each complete line costs the analysis of that line only, and
 * gives the findings the full analysis would report while reading it. What
 * is only known at the end of the file (unknown names, blocks never closed)
 * is not reported; fixes are not proven here (validateAvap does that).
 */
import { Analyzer } from './analyzer';
import { Reporter } from './reporter';
import type { TraceEntry } from './types';

export class LineAnalysis {
  private readonly reporter = new Reporter(Number.MAX_SAFE_INTEGER);
  private readonly analyzer = new Analyzer('', this.reporter);
  private seen = 0;

  /**
   * Analyses the next line (its text, without the line break) and returns
   * the findings reported while reading it — on it, or on the line of a
   * block it closed — and how deeply blocks are nested after it.
   */
  line(text: string): { findings: TraceEntry[]; depth: number } {
    this.analyzer.feed(text);
    const findings = this.reporter.entries.slice(this.seen);
    this.seen = this.reporter.entries.length;
    return { findings, depth: this.analyzer.state.blocks.depth };
  }
}
