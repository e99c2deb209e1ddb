// Blank text: nothing but white space and characters drawn as nothing (Unicode's Default_Ignorable_Code_Point: the
// zero-width space, non-joiner and joiner, the word joiner, the byte order mark U+FEFF, the soft hyphen, bidi marks,
// variation selectors, Hangul fillers…). "​" (U+200B) reads as empty as "   " does, and every check of a required
// text refuses both (names, folders, addresses and operator fields of zero-width spaces only were
// stored while spaces got a 400). Shared by the server and the schemas (a pure rule of the contract).

/** A character that shows something, as a JSON schema `pattern` (compiled with the u flag): a text matches unless it is blank. */
export const NOT_BLANK_PATTERN = '[^\\s\\p{Default_Ignorable_Code_Point}]'

const visible = new RegExp(NOT_BLANK_PATTERN, 'u')

/** Whether the text shows nothing: empty, white space, invisible characters, or only these. */
export const isBlank = (text: string): boolean => !visible.test(text)

/** An optional text as kept: trimmed, or null when blank (a comment or an address complement of spaces says nothing). */
export const trimmedOrNull = (text: string | null | undefined): string | null => (text == null || isBlank(text) ? null : text.trim())

// Single-line and free text. Control characters (C0 U+0000–U+001F, DEL, C1 U+0080–U+009F) and the bidirectional
// embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069) show nothing yet change what is shown: a sender
// « URSSAF » followed by U+202E and a reversed address, a folder name that flips the list around it, escape sequences in
// an operator's terminal. A single-line field (a name, an address line, a sender, an e-mail address, a number…) refuses
// all of them, line breaks included; free text (a message, a comment) keeps its line breaks (\n, \r\n) and tabs only.
// The line and paragraph separators U+2028 and U+2029 are refused in both: they break a line in JavaScript source and
// in some mail clients, not in others (a single line would show as two, a sender's name could split a mail's header
// line), and free text has its own way to break a line: \n or \r\n. Refused, a text reads the same everywhere.
// One rule for the schemas (a JSON schema `pattern`, compiled with the u flag) and the forms of the client.

const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028-\\u202e\\u2066-\\u2069'
/** The same without tab (U+0009) and line feed (U+000A): a carriage return (U+000D) passes only before a line feed. */
const CONTROLS_BUT_LINE_BREAKS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028-\\u202e\\u2066-\\u2069'

/** Free text as a form sends it: every line break a plain \n. A textarea keeps U+2028 and U+2029 as pasted (from a PDF,
 *  a word processor, a web page), and they show as line breaks: refusing them would leave the customer with a message
 *  about characters they cannot see. A lone \r (and \r\n) becomes \n too. Applied as the text is typed. */
export const plainLineBreaks = (text: string): string => text.replace(/\r\n?|[\u2028\u2029]/g, '\n')

/**
 * A single-line text, as a JSON schema `pattern`: no control character, line break (U+2028, U+2029 included) nor bidi override or isolate.
 */
export const SINGLE_LINE_PATTERN = `^[^${CONTROLS}]*$`
/**
 * Free multi-line text, as a JSON schema `pattern`: line breaks (\n, \r\n) and tabs, but no other control character, no U+2028 or U+2029,
 * nor bidi override or isolate.
 */
export const MULTI_LINE_PATTERN = `^(?:[^${CONTROLS_BUT_LINE_BREAKS}]|\\r\\n)*$`

const singleLine = new RegExp(SINGLE_LINE_PATTERN, 'u')
const multiLine = new RegExp(MULTI_LINE_PATTERN, 'u')

/** Whether a single-line field may hold the text (see SINGLE_LINE_PATTERN). */
export const isSingleLine = (text: string): boolean => singleLine.test(text)
/** Whether a free-text field may hold the text (see MULTI_LINE_PATTERN). */
export const isCleanMultiLine = (text: string): boolean => multiLine.test(text)

/** The refusal of a single-line field, after its name (« Le champ « name » » on the server, « Ce champ » in a form). */
export const NOT_SINGLE_LINE =
  'ne peut contenir ni retour à la ligne ni caractère invisible de contrôle ou d’inversion du sens d’écriture : retirez-les.'
/** The refusal of a free-text field, after its name. */
export const HIDDEN_CONTROL = 'contient des caractères invisibles de contrôle ou d’inversion du sens d’écriture : retirez-les.'

/** A form's refusal of a single-line field, on the text it will send (trimmed), or null: the server's schema holds the same rule. */
export const singleLineProblem = (text: string): string | null => (isSingleLine(text.trim()) ? null : `Ce champ ${NOT_SINGLE_LINE}`)
/** A form's refusal of a free text, on the text it will send (trimmed), or null. */
export const freeTextProblem = (text: string): string | null => (isCleanMultiLine(text.trim()) ? null : `Ce texte ${HIDDEN_CONTROL}`)
