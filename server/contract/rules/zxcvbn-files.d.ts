// The files of @zxcvbn-ts/language-en imported one by one (server/contract/rules/password-strength.ts): a word list, or
// an object of word lists (wordSequences), as the package's index exports them.
declare module '@zxcvbn-ts/language-en/dist/commonWords.json.mjs' {
  const words: string[]
  export default words
}
declare module '@zxcvbn-ts/language-en/dist/firstnames.json.mjs' {
  const words: string[]
  export default words
}
declare module '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs' {
  const lists: Record<string, string[]>
  export default lists
}
