import type { SignatureForm } from '../signatures/body-forms.js';

/**
 * How the signature of a handled message was checked.
 *
 * @example
 * const describe = (v: Verification) =>
 *   v.form === 'unsigned' ? 'not verified' : `${v.form} body, secret #${v.secretIndex}`;
 */
export type Verification = { form: SignatureForm; secretIndex: number } | { form: 'unsigned'; secretIndex: -1 };
