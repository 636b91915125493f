/**
 * `fmt [--check] [PATH…]` — formats AVAP files in place with the one
 * formatter (src/language/format.ts: block indentation, a space after each
 * argument's comma, no trailing whitespace, one final newline; it never
 * changes what a program means). With --check it writes nothing and exits 1
 * listing the files that would change, for CI. A directory is searched for
 * `.avap` files (skipping node_modules and hidden folders); `-` formats
 * standard input to standard output.
 */
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatDocument } from '../../language';
import { DEFAULT_MAX_BYTES, guardInput } from '../../parser';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import { EXIT_INTERRUPTED } from '../lifecycle';
import { overLimitEntry, readFileLimited, type LimitedInput } from '../readInput';

const USAGE = `Usage: node dist/cli.js fmt [--check] [PATH...]
  Formats AVAP files in place: block indentation (two spaces), one space after each argument's comma,
  no trailing whitespace, one final newline. Formatting never changes what a program means.
  PATH is a file, a directory (every .avap file below it, node_modules and hidden folders skipped)
  or - (standard input, formatted to standard output). Default: the current directory.
  --check   write nothing; list the files that would change and exit 1 if there is any
Exit codes: 0 formatted (or, with --check, nothing to change), 1 with --check when a file would change,
2 usage error or a file that cannot be read or is not text.`;

async function avapFilesUnder(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await avapFilesUnder(full, out);
    else if (entry.isFile() && entry.name.endsWith('.avap')) out.push(full);
  }
}

/** The files to format: each PATH, a directory expanded to its .avap files. */
async function expand(paths: readonly string[], io: CliIO): Promise<{ files: string[]; failed: boolean }> {
  const files: string[] = [];
  let failed = false;
  for (const p of paths) {
    if (p === '-') {
      files.push(p);
      continue;
    }
    try {
      if ((await stat(p)).isDirectory()) await avapFilesUnder(p, files);
      else files.push(p);
    } catch (err) {
      io.stderr(`avap fmt: cannot read ${p}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      failed = true;
    }
  }
  return { files, failed };
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { check: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  const check = values.check ?? false;
  const { files, failed } = await expand(positionals.length > 0 ? positionals : ['.'], io);
  let exit: number = failed ? EXIT.usage : EXIT.ok;
  for (const file of files) {
    if (io.signal.aborted) return EXIT_INTERRUPTED;
    let input: LimitedInput;
    try {
      // Bounded: a file or an input over the parser's limit is refused, never read whole.
      input =
        file === '-'
          ? await io.readStdin(DEFAULT_MAX_BYTES)
          : await readFileLimited(file, DEFAULT_MAX_BYTES, io.signal);
    } catch (err) {
      if (io.signal.aborted) return EXIT_INTERRUPTED;
      io.stderr(`avap fmt: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      exit = EXIT.usage;
      continue;
    }
    const name = file === '-' ? '<stdin>' : file;
    const bytes = input.bytes;
    const guarded = input.over
      ? { ok: false as const, error: overLimitEntry(input, DEFAULT_MAX_BYTES) }
      : guardInput(bytes, DEFAULT_MAX_BYTES);
    if (!guarded.ok) {
      io.stderr(`avap fmt: ${name}: not formatted — ${guarded.error.message}\n`);
      exit = EXIT.usage;
      continue;
    }
    // The decoder drops a byte-order mark; a formatted file keeps it.
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? '\ufeff' : '';
    const formatted = formatDocument(guarded.value);
    const changed = formatted !== guarded.value;
    if (file === '-' && !check) {
      io.stdout(formatted);
      continue;
    }
    if (!changed) continue;
    io.stdout(`${name}\n`);
    if (check) {
      if (exit === EXIT.ok) exit = EXIT.invalid;
      continue;
    }
    try {
      await writeFile(file, bom + formatted, 'utf8');
    } catch (err) {
      io.stderr(`avap fmt: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      exit = EXIT.usage;
    }
  }
  return exit;
}

export const fmtCommand: CliCommand = {
  name: 'fmt',
  summary: 'format AVAP files (indentation, commas, whitespace); --check for CI',
  usage: USAGE,
  run,
};
