import type { SignatureForm } from '../../signatures/body-forms.js';
import type { Secret } from '../../signatures/sign.js';
import type { DetailedVerifyResult, VerifyInput } from '../../signatures/verify.js';
import { getHeader } from '../headers.js';
import { andThen, type MaybePromise } from '../maybe-promise.js';
import type { ReceiverSetup } from '../setup.js';
import { explainSignature } from './explain-signature.js';
import { warnSignatureFailure } from './signature-warning.js';
import { refuse, type ArrivedRequest, type Refusal, type Verified } from './request.js';

/**
 * The step that checks the `X-Signature` header, before the body is trusted in any way (401 when it
 * is missing, malformed or wrong). Adds which form and secret matched and the exact signed text or
 * bytes. With verification off, the request goes on as `unsigned`. At once on `node:crypto`; a
 * promise on Web Crypto.
 *
 * @example
 * const verified = await verify(setup, newRequest(input));
 * if (!isRefusal(verified)) console.log(verified.verification.form);
 */
export function verify<TExtra, R extends ArrivedRequest<TExtra>>(
  setup: ReceiverSetup<TExtra>,
  request: R,
): MaybePromise<Refusal | (R & Verified)> {
  const { secrets } = setup;
  if (secrets === null) return Object.assign(request, { verification: UNSIGNED, signedBody: undefined });
  const { input } = request;
  const signature = getHeader(input.headers, 'x-signature');
  if (signature === undefined || signature === '') {
    warnSignatureFailure(setup, 'missing');
    return setup.answers.missingSignature;
  }
  const checked = signatureInput(setup, secrets, {
    signature,
    rawBody: input.rawBody,
    parsedBody: input.parsedBody,
    forms: setup.signatureForms,
  });
  return andThen(setup.verifySignature(checked), ({ result, signed }): Refusal | (R & Verified) => {
    if (!result.ok) {
      explainSignature(setup, secrets, String(signature), input.rawBody, result);
      warnSignatureFailure(setup, result.reason, input.rawBody === undefined);
      // Not 'missing': an absent or empty header was answered above.
      const { rawMismatch } = setup.answers;
      return result.message === rawMismatch.message ? rawMismatch : refuse('invalid_signature', result.message);
    }
    return Object.assign(request, {
      verification: { form: result.form, secretIndex: result.secretIndex },
      signedBody: signed,
    });
  });
}

/** With verification off (`insecureSkipVerification`): no form, no secret. */
const UNSIGNED: Verified['verification'] = Object.freeze({ form: 'unsigned', secretIndex: -1 });

/** A signature and the body it should match, as the receiver has them. */
interface SignedBody {
  signature: unknown;
  rawBody?: string | Uint8Array | undefined;
  parsedBody?: unknown;
  forms: readonly SignatureForm[] | undefined;
}

/**
 * A signature checked with the receiver's crypto (`node:crypto`, else Web Crypto) and rules.
 *
 * @example
 * const { result } = await checkSignature(setup, secrets, { signature, parsedBody: batch[0], forms: ['stringify'] });
 */
export function checkSignature<TExtra>(
  setup: ReceiverSetup<TExtra>,
  secrets: readonly Secret[],
  body: SignedBody,
): MaybePromise<DetailedVerifyResult> {
  return setup.verifySignature(signatureInput(setup, secrets, body));
}

/** What `verifyDetailed` takes, from the receiver's secrets and rules and one body. */
function signatureInput<TExtra>(
  setup: ReceiverSetup<TExtra>,
  secrets: readonly Secret[],
  body: SignedBody,
): VerifyInput {
  return {
    signature: body.signature,
    secret: secrets,
    rawBody: body.rawBody,
    parsedBody: body.parsedBody,
    forms: body.forms,
    allowReserialized: setup.allowReserialized,
  };
}
