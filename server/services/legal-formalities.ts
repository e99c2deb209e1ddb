// The legal formalities customers order from /formalites-juridique: what each is called, whether the
// order checks allow it now (the same rules the portal explains), and the steps a request goes through.
export { legalFormalityLabels, legalSubmissionSteps, refusalFor, refusals } from '../contract/rules/formalities.ts'
