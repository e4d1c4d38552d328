/**
 * What every command under bench/ does with its flags: `--help` (or `-h`)
 * prints the flags and exits 0; a flag it does not know is one line and exit
 * code 2, never a stack trace; a missing browser is one line on how to get one.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isChromiumNotFound } from '../test/support/find-chromium.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
export type CliArgs<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** The flag list: one line per option, with its default. */
export function usageOf(about: string, options: Options): string {
  const rows = Object.entries({ ...options, help: { type: 'boolean', short: 'h' } } as Options).map(([name, o]) => {
    const flag = `--${name}${o.short ? `, -${o.short}` : ''}${o.type === 'string' ? ' <value>' : ''}`;
    const fallback = o.default === undefined || o.default === false ? '' : `(default: ${String(o.default)})`;
    return `  ${flag.padEnd(32)}${name === 'help' ? 'print this list' : fallback}`.trimEnd();
  });
  return `${about.trim()}\n\nFlags:\n${rows.join('\n')}`;
}

/** parseArgs, with --help and bad flags handled: `exit` is the code to end with instead. */
export function parseCli<T extends ParseArgsConfig & { options: Options }>(config: T, about: string, argv: string[] = process.argv.slice(2)): { args: CliArgs<T> } | { exit: number } {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usageOf(about, config.options));
    return { exit: 0 };
  }
  try {
    return { args: parseArgs<T>({ ...config, args: argv } as T) };
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}. Run with --help for the flags.`);
    return { exit: 2 };
  }
}

/** Runs a command's main: its exit code, or one line for a missing browser, else the error as it is. */
export function runCli(main: () => Promise<number>, describe: (err: unknown) => { line: string; code: number } | null = () => null): void {
  main().then(
    (code) => { process.exitCode = code; },
    (err: unknown) => {
      const known = isChromiumNotFound(err) ? { line: err.message, code: 1 } : describe(err);
      console.error(known ? known.line : err);
      process.exitCode = known ? known.code : 1;
    },
  );
}

/**
 * For a command that reads a few switches from argv itself: `--help` prints
 * them (name → what it does) and exits 0 before anything runs.
 */
export function helpIfAsked(about: string, flags: Readonly<Record<string, string>>, argv: string[] = process.argv.slice(2)): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  const rows = Object.entries({ ...flags, '--help, -h': 'print this list' }).map(([flag, what]) => `  ${flag.padEnd(32)}${what}`);
  console.log(`${about.trim()}\n\nFlags:\n${rows.join('\n')}`);
  process.exit(0);
}
