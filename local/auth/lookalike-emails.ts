import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Look-alike email addresses: a Cyrillic 'а' among Latin letters reads as
 * another address (pаypal.com), which lets one person hold an account that
 * passes for someone else's. The rules follow Unicode's "highly restrictive"
 * profile (UTS #39) for the local part and for each label of the domain: one
 * script each (Chinese, Japanese and Korean mix Han with their own scripts and
 * Latin), nothing invisible, nothing that NFKC changes (full-width letters),
 * and a domain that round-trips through IDNA; a label or local part written
 * wholly in Cyrillic or Greek letters that look Latin is refused as well.
 */

const SCRIPTS = [
  'Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali',
  'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan',
  'Myanmar', 'Khmer', 'Mongolian', 'Ethiopic', 'Cherokee', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);

// Scripts that may share one label, as written Chinese, Japanese and Korean do (UTS #39, highly restrictive).
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

// Cyrillic and Greek letters that pass for lower-case Latin ones; under a Latin top-level domain a part made only of them reads as a Latin word.
const LATIN_LOOKALIKES = new Set([...'аеорсухіјѕһԁԛԝӏοαινυρ']);

function scriptOf(char: string): string {
  for (const [script, pattern] of SCRIPT_PATTERNS) if (pattern.test(char)) return script;
  return `Other+${char.codePointAt(0)!.toString(16)}`;
}

function scriptsIn(text: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of text) {
    if (/[\p{L}\p{N}]/u.test(char) && !/[0-9]/.test(char)) scripts.add(scriptOf(char));
  }
  return scripts;
}

/** Why a part (the local part or one domain label) could pass for another, or null. */
function partProblem(part: string, underLatinTld: boolean): string | null {
  const scripts = scriptsIn(part);
  if (scripts.size > 1 && !ALLOWED_MIXES.some((allowed) => [...scripts].every((script) => allowed.has(script)))) {
    return 'mixes letters from different alphabets';
  }
  const letters = [...part].filter((char) => /\p{L}/u.test(char));
  if (underLatinTld && (scripts.has('Cyrillic') || scripts.has('Greek')) && letters.length > 0 && letters.every((char) => LATIN_LOOKALIKES.has(char))) {
    return 'is written in letters that only look Latin';
  }
  return null;
}

const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why this (lower-cased, syntactically valid) address could be mistaken for
 * another one, or null when it cannot.
 */
export function lookalikeEmailProblem(email: string): string | null {
  if (/[\p{Cc}\p{Cf}\p{Z}]/u.test(email) || /\p{Default_Ignorable_Code_Point}/u.test(email)) {
    return 'it contains invisible characters';
  }
  if (email.normalize('NFKC') !== email) return 'it contains characters that stand in for others (such as full-width letters)';
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const ascii = domainToASCII(domain);
  const labels = ascii.split('.');
  if (!ascii || labels.length < 2 || !labels.every((label) => ASCII_LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    return 'its domain is not a valid internationalised domain name';
  }
  const unicode = domainToUnicode(ascii);
  // The domain as typed must be the one IDNA gives back: no characters that IDNA maps to others.
  if (/[^\x00-\x7f]/.test(domain) && unicode !== domain) return 'its domain is not written the way it is registered';
  const unicodeLabels = unicode.split('.');
  const underLatinTld = /^[a-z]+$/.test(unicodeLabels.at(-1)!);
  const localProblem = partProblem(local, underLatinTld);
  if (localProblem) return `its name part ${localProblem}`;
  for (const label of unicodeLabels) {
    const problem = partProblem(label, underLatinTld);
    if (problem) return `its domain ${problem}`;
  }
  return null;
}
