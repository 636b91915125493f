import assert from 'node:assert/strict';
import { readEvalReport, MAX_REPORT_BYTES } from '../../../src/eval';
// internal-import: the evaluation report view's HTML, tested without a webview
import { evalReportBody, evalReportError } from '../../../src/editor/metrics/evalReportHtml';
import { sampleStoredReport } from '../../support/sampleEvalReport';

describe('eval: reading report.json back for the editor', () => {
  it('accepts a report written by eval --out (nulls where a metric was undefined)', () => {
    const read = readEvalReport(JSON.stringify(sampleStoredReport()));
    assert.ok(read.ok, read.ok ? '' : read.error.message);
    assert.equal(read.value.config.model, 'qwen3:1.7b');
    assert.equal(read.value.faithfulness.mean, null);
  });

  it('says why a file is not a report instead of throwing', () => {
    const cases: [string, RegExp][] = [
      ['', /not JSON/],
      ['\u0000\u0001binary', /not JSON/],
      ['[1,2,3]', /not an evaluation report.*\(root\)/],
      [JSON.stringify({ ...sampleStoredReport(), runs: 'five' }), /not an evaluation report.*runs/],
      ['{"config": {"seed": "x"}}', /config\.seed/],
    ];
    for (const [text, error] of cases) {
      const read = readEvalReport(text);
      assert.equal(read.ok, false, text);
      assert.match(read.ok ? '' : read.error.message, error);
    }
    const huge = readEvalReport(' '.repeat(MAX_REPORT_BYTES + 1));
    assert.match(huge.ok ? '' : huge.error.message, /larger than 32 MiB/);
    assert.equal(huge.ok ? '' : huge.error.kind, 'too-large');
  });

  it('renders the figures, one bar per run, and the parse failures', () => {
    const read = readEvalReport(JSON.stringify(sampleStoredReport()));
    assert.ok(read.ok);
    const body = evalReportBody(read.value, '/tmp/out/report.json');
    assert.match(body, /AVAP evaluation — qwen3:1\.7b/);
    assert.match(body, /66\.7 % ± 4\.7/);
    assert.match(body, /retrieval <b>knn_only<\/b>/);
    assert.match(body, /few-shot degraded \(K=5\)/);
    const perRun = body.slice(
      body.indexOf('Syntactic validity per run'),
      body.indexOf('Quality gate on RETRIEVAL answers'),
    );
    assert.equal((perRun.match(/<rect /g) ?? []).length, 2);
    assert.match(perRun, /70\.0 % \(7\/10\)/);
    assert.match(body, /GD-C-007/);
    assert.match(body, /unknown_token 3/);
    assert.match(body, /1 question\(s\) could not be answered/);
    const gate = body.slice(
      body.indexOf('Quality gate on RETRIEVAL answers'),
      body.indexOf('Parse failures by category'),
    );
    assert.deepEqual(
      [...gate.matchAll(/<span class="note">(\d+)<\/span>/g)].map((m) => m[1]),
      ['4', '3', '1', '1'],
      'judged, passed, retried, judge failures over both runs',
    );
    assert.match(body, /faithfulness<\/div>/);
    assert.match(body, />—</, 'an undefined metric shows a dash, not 0');
  });

  it("shows the report's warnings and how the few-shot examples were chosen; older reports without them still read", () => {
    const report = {
      ...sampleStoredReport(),
      warnings: ['runs < 5: mean and standard deviation are not comparable (ADR-0007)'],
    };
    report.config.fewShot = { ...report.config.fewShot, selection: 'lexical' } as typeof report.config.fewShot;
    const read = readEvalReport(JSON.stringify(report));
    assert.ok(read.ok, read.ok ? '' : read.error.message);
    const body = evalReportBody(read.value, 'r.json');
    assert.match(
      body,
      /<section class="warnings"><h2>Warnings<\/h2><ul><li>runs &lt; 5: mean and standard deviation are not comparable \(ADR-0007\)<\/li><\/ul><\/section>/,
    );
    assert.match(body, /few-shot degraded \(K=5, lexical fallback\)/);
    const old = readEvalReport(JSON.stringify(sampleStoredReport()));
    assert.ok(old.ok);
    assert.doesNotMatch(evalReportBody(old.value, 'r.json'), /Warnings/);
  });

  it('leaves the quality gate out of a report made without the judge', () => {
    const report = sampleStoredReport();
    for (const run of report.runs)
      Object.assign(run, { quality_judged: 0, quality_passed: 0, quality_retried: 0, quality_failures: 0 });
    const read = readEvalReport(JSON.stringify(report));
    assert.ok(read.ok);
    assert.doesNotMatch(evalReportBody(read.value, 'r.json'), /Quality gate/);
  });

  it('escapes everything that comes from the file', () => {
    const report = sampleStoredReport();
    report.config.model = '<img src=x onerror=alert(1)>';
    report.confusion.topTokens = [['<script>alert(1)</script>', 2]];
    const read = readEvalReport(JSON.stringify(report));
    assert.ok(read.ok);
    const body = evalReportBody(read.value, '"><script>');
    assert.doesNotMatch(body, /<script>|<img /);
    assert.doesNotMatch(evalReportError('<b>', '<i>'), /<b>|<i>/);
  });
});
