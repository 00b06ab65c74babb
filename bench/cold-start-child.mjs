// One cold start, as a whole process (bench/footprint.ts): import the verifier, build it, verify one
// signed 1 KB request, then print `CPU=<µs>`: the user + system CPU of the whole process, Node's own
// start included (the same for every verifier). argv: the verifier; env BODY and SIGNATURE: the request.
const [verifier] = process.argv.slice(2);
const body = process.env.BODY;
const signature = process.env.SIGNATURE;

if (verifier === 'hookgate') {
  const { createReceiver } = await import('@hookgate/core');
  let handled;
  const receiver = createReceiver({ secret: 'secret', onMessage: (msg) => void (handled = msg.type) });
  // The adapter contract's input, as a Node server hands it over (octokit's verifyAndReceive takes the
  // same: the body's text and the signature). `receiver.fetch` would also load Node's fetch (undici).
  const answer = await receiver.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': signature },
    rawBody: body,
  });
  if (answer.status !== 200 || handled !== 'track') throw new Error(`hookgate answered ${answer.status}`);
} else if (verifier === '@octokit/webhooks') {
  const { Webhooks } = await import('@octokit/webhooks');
  let handled;
  const webhooks = new Webhooks({ secret: 'secret' });
  webhooks.onAny((event) => void (handled = event.name));
  await webhooks.verifyAndReceive({ id: '1', name: 'push', payload: body, signature });
  if (handled !== 'push') throw new Error('octokit did not handle the event');
} else throw new Error(`unknown verifier ${verifier}`);

const { user, system } = process.cpuUsage();
console.log(`CPU=${user + system}`);
