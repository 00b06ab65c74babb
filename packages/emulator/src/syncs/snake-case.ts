/**
 * The snake_case form of an audience or computed-trait name: words split at spaces,
 * punctuation and camelCase boundaries, lowercased, joined with `_`.
 *
 * @example
 * snakeCase('High Value Users'); // 'high_value_users'
 * snakeCase('lastOrderTotal');   // 'last_order_total'
 * snakeCase('Churn-Risk (90d)'); // 'churn_risk_90d'
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .join('_');
}
