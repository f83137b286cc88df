/**
 * Command-line entry of the admin command (see `admin.ts`).
 * @module
 */

import { createInterface } from 'node:readline';
import { runAdmin, usage, UsageError } from './admin.js';

function firstLineOfStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, terminal: false });
    let done = false;
    rl.once('line', (line) => {
      done = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!done) resolve('');
    });
  });
}

runAdmin(process.argv.slice(2), { env: process.env, readPassword: firstLineOfStdin, out: (line) => console.log(line) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage()}`);
      process.exit(2);
    }
    console.error('admin command failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
