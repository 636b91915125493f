/**
 * The contributor's tools: F5 opens an Extension Development Host with this extension and the
 * examples, after the `watch` task's first build; the watch script's progress lines are the ones that task's
 * problem matcher waits for; .vscode/ is in the repository.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '..', '..', '..');
const json = <T>(file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as T;

interface Task {
  label: string;
  type: string;
  script?: string;
  isBackground?: boolean;
  problemMatcher: { background?: { beginsPattern: string; endsPattern: string } };
}

describe('contributor files: launch.json, tasks.json, watch', () => {
  const pkg = json<{ scripts: Record<string, string> }>('package.json');
  const tasks = json<{ tasks: Task[] }>('.vscode/tasks.json').tasks;
  const launch = json<{ configurations: { name: string; type: string; args?: string[]; preLaunchTask?: string }[] }>(
    '.vscode/launch.json',
  ).configurations;

  it('F5 runs the extension in a development host on the examples, after the watch task', () => {
    const run = launch.find((c) => c.type === 'extensionHost');
    assert.ok(run, 'an extensionHost configuration');
    assert.ok(run.args?.includes('--extensionDevelopmentPath=${workspaceFolder}'));
    assert.ok(run.args?.includes('${workspaceFolder}/examples'));
    const task = tasks.find((t) => t.label === run.preLaunchTask);
    assert.ok(task, `the preLaunchTask ${run.preLaunchTask} is a task`);
    assert.equal(task.type, 'npm');
    assert.equal(task.isBackground, true);
    assert.match(pkg.scripts[task.script ?? ''] ?? '', /esbuild\.config\.mjs --watch$/);
    for (const t of tasks)
      if (t.type === 'npm') assert.ok(pkg.scripts[t.script ?? ''], `npm script ${t.script} exists`);
  });

  it("the watch task's problem matcher waits for the lines the watch build prints", async () => {
    const config = (await import(pathToFileURL(path.join(root, 'esbuild.config.mjs')).href)) as {
      WATCH_STARTED: string;
      WATCH_FINISHED: string;
    };
    const background = tasks.find((t) => t.label === 'watch')?.problemMatcher.background;
    assert.ok(background);
    assert.match(config.WATCH_STARTED, new RegExp(background.beginsPattern));
    assert.match(config.WATCH_FINISHED, new RegExp(background.endsPattern));
  });

  it('.vscode/ is not ignored by git; packaging builds production bundles', () => {
    const ignored = readFileSync(path.join(root, '.gitignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    assert.ok(
      !ignored.some((l) => l === '.vscode' || l === '.vscode/' || l === '/.vscode'),
      '.vscode is not in .gitignore',
    );
    assert.match(pkg.scripts['vscode:prepublish'] ?? '', /--production/);
  });
});
