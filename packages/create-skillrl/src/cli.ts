import { runCreateSkillrl } from './create-cli.js';

// `npm create skillrl <args>` runs this bin with <args>.
runCreateSkillrl(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
