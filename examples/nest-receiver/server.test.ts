// The example keeps the shared example contract (start() and the one-command script) on a real
// Nest application server.
import { describeExample } from '../../test/adapters/example-contract.js';
import { start } from './server.js';

describeExample('nest-receiver', start, 3004);
