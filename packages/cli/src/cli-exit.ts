// One class for both CLIs (create-skillrl's runProgram knows it): a command ends with this exit status.
export { CliExit } from 'create-skillrl';
