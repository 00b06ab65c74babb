// Run by lifecycle.test.ts in a child process: node --import tsx child-client.ts <endpoint> <mode>
import { Analytics } from '../../src/index.js';

const [endpoint, mode] = process.argv.slice(2);
const analytics = new Analytics('wk_child', { endpoint, flushAfter: 60_000 });
for (let i = 0; i < 3; i++) analytics.track({ userId: 'u1', event: `E${i}` });
if (mode === 'close') await analytics.close();
// mode "no-close": nothing else; the process must still end on its own, after sending.
