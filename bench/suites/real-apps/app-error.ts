/**
 * An application of the real-apps suite that cannot be installed, seeded or
 * started. Its message is one line naming the application and what failed;
 * the benchmark prints it and ends (never a silent pass).
 */
export class AppUnavailableError extends Error {
  // Matched by name in bench/suite.ts (isSuiteStartError).
  override readonly name = 'AppUnavailableError';
  constructor(readonly app: string, detail: string) {
    super(`${app}: ${detail}`);
  }
}
