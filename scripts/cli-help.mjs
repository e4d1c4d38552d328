// `--help` for the scripts: prints the usage and exits 0 before anything runs.
export function helpIfAsked(usage, argv = process.argv.slice(2)) {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  console.log(`${usage.trim()}\n  --help, -h    print this`);
  process.exit(0);
}
