// Blank text: nothing but white space and characters drawn as nothing (Unicode's Default_Ignorable_Code_Point: the
// zero-width space, non-joiner and joiner, the word joiner, the byte order mark U+FEFF, the soft hyphen, bidi marks,
// variation selectors, Hangul fillers…). "​" (U+200B) reads as empty as "   " does, and every check of a required
// text refuses both (found in review: names, folders, addresses and operator fields of zero-width spaces only were
// stored while spaces got a 400). Shared by the server and the schemas (a pure rule of the contract).

/** A character that shows something, as a JSON schema `pattern` (compiled with the u flag): a text matches unless it is blank. */
export const NOT_BLANK_PATTERN = '[^\\s\\p{Default_Ignorable_Code_Point}]'

const visible = new RegExp(NOT_BLANK_PATTERN, 'u')

/** Whether the text shows nothing: empty, white space, invisible characters, or only these. */
export const isBlank = (text: string): boolean => !visible.test(text)

/** An optional text as kept: trimmed, or null when blank (a comment or an address complement of spaces says nothing). */
export const trimmedOrNull = (text: string | null | undefined): string | null => (text == null || isBlank(text) ? null : text.trim())
