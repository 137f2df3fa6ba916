import { COMMANDS } from './commands/index.js';
import { startCli } from './start.js';

startCli(COMMANDS);
