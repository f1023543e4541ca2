/** Full-width digits and plus sign (what Chinese input methods type) to their ASCII forms. */
function toHalfWidth(text: string): string {
  return text.replace(/[\uFF10-\uFF19\uFF0B]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));
}

/** Spaces (also no-break and ideographic), hyphens and dashes of any width, dots and brackets. */
const SEPARATORS = /[\s\u00A0\u3000\-\u2010-\u2015\u2212\uFF0D.()\uFF08\uFF09]/g;

/** +86, 0086 or a bare 86 in front of a mainland mobile number. */
const CHINA_PREFIX = /^(?:\+86|0086|86)(?=1\d{10}$)/;

/**
 * A mainland mobile number as people paste it (`138 0013 8001`, `138-0013-8001`, `+86 13800138001`,
 * `0086 13800138001`, full-width digits) turned into the 11 digits the API stores. Anything that is
 * not such a number comes back with only its separators removed, so validation still refuses it.
 */
export function normalizeTelephone(input: string): string {
  const compact = toHalfWidth(input).replace(SEPARATORS, '');
  return compact.replace(CHINA_PREFIX, '');
}
