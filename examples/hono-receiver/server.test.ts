// The example keeps the shared example contract (start() and the one-command script).
import { describeExample } from '../../test/adapters/example-contract.js';
import { start } from './server.js';

describeExample('hono-receiver', start, 3002);
