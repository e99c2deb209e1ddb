// Draws each statechart of src/machines as a Mermaid state diagram, from the machine objects
// themselves (states, transitions with their guards, invoked actors), into docs/diagrams/.
//   npm run diagrams            write the diagrams
//   npm run diagrams -- --check fail when a written diagram no longer matches the code
import { readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { AnyStateMachine, AnyStateNode } from 'xstate'
import { accountingExportMachine } from '../src/machines/mail/accountingExport.machine.ts'
import { courierRequestCancelMachine } from '../src/machines/mail/courierRequestCancel.machine.ts'
import { folderEditorMachine } from '../src/machines/mail/folderEditor.machine.ts'
import { identityUploadMachine } from '../src/machines/company/identityUpload.machine.ts'
import { uploadedDocumentsMachine } from '../src/machines/company/uploadedDocuments.machine.ts'
import { kbisUploadMachine } from '../src/machines/company/kbisUpload.machine.ts'
import { mailboxMachine } from '../src/machines/mail/mailbox.machine.ts'
import { orderSelectionMachine } from '../src/machines/session/orderSelection.machine.ts'
import { portalDataMachine } from '../src/machines/session/portalData.machine.ts'
import { problemReportMachine } from '../src/machines/notifications/problemReport.machine.ts'
import { sessionMachine } from '../src/machines/session/session.machine.ts'
import { startupMachine } from '../src/machines/session/startup.machine.ts'
import { submissionMachine } from '../src/machines/session/submission.machine.ts'
import { unpaidInvoicesMachine } from '../src/machines/billing/unpaidInvoices.machine.ts'
// people
import { collaboratorsMachine } from '../src/machines/people/collaborators.machine.ts'
import { devicesMachine } from '../src/machines/people/devices.machine.ts'
import { closeAccountMachine } from '../src/machines/people/closeAccount.machine.ts'
import { leaveOrderMachine } from '../src/machines/people/leaveOrder.machine.ts'
import { dataExportMachine } from '../src/machines/people/dataExport.machine.ts'
import { emailChangeMachine } from '../src/machines/people/emailChange.machine.ts'
import { emailRevertMachine } from '../src/machines/people/emailRevert.machine.ts'
import { invitationMachine } from '../src/machines/people/invitation.machine.ts'
import { passkeyLoginMachine } from '../src/machines/session/passkeyLogin.machine.ts'
import { passkeysMachine } from '../src/machines/people/passkeys.machine.ts'
import { passwordChangeMachine } from '../src/machines/people/passwordChange.machine.ts'
import { referralMachine } from '../src/machines/people/referral.machine.ts'
import { representativesMachine } from '../src/machines/people/representatives.machine.ts'
// billing
import { cardReplacementMachine } from '../src/machines/billing/cardReplacement.machine.ts'
import { certificateVerificationMachine } from '../src/machines/billing/certificateVerification.machine.ts'
import { documentDownloadMachine } from '../src/machines/billing/documentDownload.machine.ts'
import { forwardingAddressMachine } from '../src/machines/billing/forwardingAddress.machine.ts'
import { invoiceBookMachine } from '../src/machines/billing/invoiceBook.machine.ts'
import { subscriptionOptionMachine } from '../src/machines/billing/subscriptionOption.machine.ts'
import { terminationMachine } from '../src/machines/billing/termination.machine.ts'
// company area
import { formalityOrderMachine } from '../src/machines/company/formalityOrder.machine.ts'
import { legalSubmissionListMachine } from '../src/machines/company/legalSubmissionList.machine.ts'
// notifications
import { letterHistoryMachine } from '../src/machines/mail/letterHistory.machine.ts'
import { notificationPreferencesMachine } from '../src/machines/notifications/notificationPreferences.machine.ts'
import { myConversationsMachine } from '../src/machines/notifications/myConversations.machine.ts'
import { notificationsMachine } from '../src/machines/notifications/notifications.machine.ts'
import { partnerInterestMachine } from '../src/machines/company/partnerInterest.machine.ts'
// mail beyond the peers
import { letterDeadlinesMachine } from '../src/machines/mail/letterDeadlines.machine.ts'
import { letterPagesMachine } from '../src/machines/mail/letterPages.machine.ts'
import { letterSearchMachine } from '../src/machines/mail/letterSearch.machine.ts'

import { apiKeysMachine } from '../src/backoffice/machines/operators/apiKeys.machine.ts'
import { myPasskeysMachine } from '../src/backoffice/machines/operators/myPasskeys.machine.ts'
import { enrolmentMachine } from '../src/backoffice/machines/operators/enrolment.machine.ts'
import { journalMachine } from '../src/backoffice/machines/operators/journal.machine.ts'
import { operatorDirectoryMachine } from '../src/backoffice/machines/operators/operatorDirectory.machine.ts'
import { operatorInviteMachine } from '../src/backoffice/machines/operators/operatorInvite.machine.ts'
import { operatorSessionMachine } from '../src/backoffice/machines/operators/operatorSession.machine.ts'
import { signInMachine } from '../src/backoffice/machines/operators/signIn.machine.ts'
import { queuesMachine } from '../src/backoffice/machines/dashboard/queues.machine.ts'
import { clientOrderMachine } from '../src/backoffice/machines/operators/clientOrder.machine.ts'
import { clientSearchMachine } from '../src/backoffice/machines/operators/clientSearch.machine.ts'
import { newClientMachine } from '../src/backoffice/machines/operators/newClient.machine.ts'
import { forwardingMachine } from '../src/backoffice/machines/mail/forwarding.machine.ts'
import { conversationsMachine } from '../src/backoffice/machines/notifications/conversations.machine.ts'
import { terminationsMachine } from '../src/backoffice/machines/billing/terminations.machine.ts'
import { handoverMachine } from '../src/backoffice/machines/mail/handover.machine.ts'
import { orderPickerMachine } from '../src/backoffice/machines/mail/orderPicker.machine.ts'
import { packageDeskMachine } from '../src/backoffice/machines/mail/packageDesk.machine.ts'
import { scanQueueMachine } from '../src/backoffice/machines/mail/scanQueue.machine.ts'
import { scanReviewMachine } from '../src/backoffice/machines/mail/scanReview.machine.ts'
import { justificatifReviewMachine } from '../src/backoffice/machines/company/justificatifReview.machine.ts'
import { formalitiesMachine } from '../src/backoffice/machines/company/formalities.machine.ts'

const machines: [file: string, machine: AnyStateMachine, what: string][] = [
  [
    'session',
    sessionMachine,
    'Login, logout, a failed current-user fetch (silent), a 401 during work (told on /login); loads the portal and runs the startup machine as its child.',
  ],
  [
    'startup',
    startupMachine,
    'Spec §4: user and contracts, then orders; default order, selection or the only order; the missing-documents check; the header pick.',
  ],
  ['orderSelection', orderSelectionMachine, "The selection screen: an order, or 'Tous'; dismissable once a choice exists."],
  [
    'portalData',
    portalDataMachine,
    'What the pages show for the order picked in the header: eight resources loaded in parallel; a new pick re-enters and drops stale answers.',
  ],
  [
    'kbisUpload',
    kbisUploadMachine,
    "The Kbis banner and the 'Déposer mon justificatif' modal: only a PDF of 10 MB at most; a null answer is a failure.",
  ],
  ['problemReport', problemReportMachine, "'Signaler un problème': refused without a specific order; the box is cleared only on success."],
  ['identityUpload', identityUploadMachine, '/missing-document: one file per document, sent one at a time with progress.'],
  [
    'uploadedDocuments',
    uploadedDocumentsMachine,
    '/missing-document: what was already sent, accepted, waiting or refused with why (uploaded-documents).',
  ],
  ['submission', submissionMachine, 'A simple form sent once at a time (forgotten password, new password).'],
  [
    'mailbox',
    mailboxMachine,
    'The letter viewer: the scan of the open letter, read at once on opening, moved to a folder, sent by e-mail; an order switch drops stale answers.',
  ],
  [
    'folderEditor',
    folderEditorMachine,
    'Folders: create, rename, delete after a confirmation (the letters stay, unfiled); a failure keeps what was typed.',
  ],
  [
    'accountingExport',
    accountingExportMachine,
    'The accounting export: invoices and letters sent to the Dext inbox in batches, with progress and a result that lists what failed.',
  ],
  [
    'courierRequestCancel',
    courierRequestCancelMachine,
    'Cancelling a pending courier request: confirmation, remove, dropped from the list.',
  ],
  ['unpaidInvoices', unpaidInvoicesMachine, "The dashboard's unpaid banner: the status, 'Régler', the status again."],
  // people
  ['emailChange', emailChangeMachine, "'Modifier mon e-mail': a valid new address sent once; taken (409): the typed address stays."],
  [
    'emailRevert',
    emailRevertMachine,
    '« Ce n’était pas vous ? » (/retablir-adresse/:token): the link sent once; done, a dead link (404/410, no retry) or « Réessayer ».',
  ],
  [
    'passwordChange',
    passwordChangeMachine,
    "'Modifier mon mot de passe': current, new under the rule, confirmation; a wrong current password keeps the form.",
  ],
  ['passkeys', passkeysMachine, "'Clés d'accès': the list; add (the ceremony), rename, remove after a confirmation."],
  ['passkeyLogin', passkeyLoginMachine, "'Se connecter avec une clé d'accès' on /login: the ceremony, then the session takes the user."],
  ['devices', devicesMachine, "'Appareils connectés': the sessions, and signing the others out."],
  ['dataExport', dataExportMachine, '« Mes données »: the ZIP prepared on the server, its progress, the download, a retry.'],
  [
    'closeAccount',
    closeAccountMachine,
    '« Fermer mon compte »: what goes and what stays, the password, then closed (the session ends), refused (an active domiciliation) or the password again.',
  ],
  ['leaveOrder', leaveOrderMachine, '« Quitter cette domiciliation »: a confirmation, then left (the portal starts again) or the reason.'],
  [
    'collaborators',
    collaboratorsMachine,
    '/mes-collaborateurs: the shares; invite several (invalid named, known dropped); remove after a confirmation.',
  ],
  ['referral', referralMachine, "'Recommander': one address, checked, sent."],
  [
    'representatives',
    representativesMachine,
    '/mes-representants: the mandataires; add (four fields, French phone); remove after a confirmation.',
  ],
  [
    'invitation',
    invitationMachine,
    'The invitation link: accept as the signed-in invitee, sign in and accept, or create the account; expired or used links said.',
  ],
  // billing
  [
    'subscriptionOption',
    subscriptionOptionMachine,
    "'Ajouter une option': the options on offer, one chosen and confirmed with its price, requested (:add-option) then confirmed (add-option-subscription).",
  ],
  [
    'termination',
    terminationMachine,
    "'Résilier': the order's request if any, else the form (reason, details, date not before the end of the period); a 409 reads the request again.",
  ],
  [
    'cardReplacement',
    cardReplacementMachine,
    "'Remplacer ma carte': the test provider's card form (Luhn, expiry, CVC), its pm_… id attached to the order or as the default card.",
  ],
  [
    'invoiceBook',
    invoiceBookMachine,
    "/factures: the years, the year's invoices and credit notes, 'Payer' after a confirmation; no card leads to /moyen-de-paiement.",
  ],
  [
    'forwardingAddress',
    forwardingAddressMachine,
    "'Adresse de réexpédition': the five fields, a French postcode of five digits, saved with PUT contracts/{id}.",
  ],
  [
    'documentDownload',
    documentDownloadMachine,
    'A document made on request (the certificate, issued first, or the contract), fetched with the token and saved.',
  ],
  ['certificateVerification', certificateVerificationMachine, 'The public page /verification/{code}: valid, no longer valid, or unknown.'],
  // company area
  [
    'partnerInterest',
    partnerInterestMachine,
    '"Ça m\'intéresse" on a partner\'s offer (Qonto, Shine, the accountant): the owner\'s request, then "Demande envoyée" for good.',
  ],
  [
    'formalityOrder',
    formalityOrderMachine,
    'Ordering a legal formality: the three order checks decide what can be ordered and why not; confirmation with a comment; the request recorded.',
  ],
  [
    'legalSubmissionList',
    legalSubmissionListMachine,
    "The formalities requested for the selected order (or all with 'Tous'), with 'Réessayer'.",
  ],
  // mail beyond the peers
  [
    'letterSearch',
    letterSearchMachine,
    "The letters' search box: under three characters the local filter; from three the server, after a pause; a new query drops the older search; 'Réessayer'.",
  ],
  [
    'letterPages',
    letterPagesMachine,
    'The viewer without a PDF viewer: the page images, fetched one at a time as they come into view; a failed page asked again; zoom; none yet, preparing.',
  ],
  ['letterDeadlines', letterDeadlinesMachine, "The deadlines found in the letters (fiscal calendar, dashboard), with 'Réessayer'."],
  // notifications
  [
    'notifications',
    notificationsMachine,
    'The bell: the list, live events from the stream (followed again after a growing pause, the list read again), mark one read (put back if the call fails), mark all read.',
  ],
  ['letterHistory', letterHistoryMachine, "A letter's history in the viewer, read again after an action on the letter, with 'Réessayer'."],
  [
    'notificationPreferences',
    notificationPreferencesMachine,
    "One order's e-mail choice on /informations-personnelles: read, each choice saved, the previous one put back when a save fails.",
  ],
  [
    'myConversations',
    myConversationsMachine,
    '« Mes échanges »: the list (open ones first) or one conversation, read again on the bell’s news; an answer, kept as typed when refused.',
  ],
  // the back office (src/backoffice/machines)
  [
    'backoffice-operatorSession',
    operatorSessionMachine,
    "The back office's session: kept under its own key, checked with the server as the page opens, ended by « Se déconnecter » or a 401.",
  ],
  [
    'backoffice-signIn',
    signInMachine,
    '/operateur/connexion: the password answers a ticket, then the TOTP code answers the session; a ticket expired goes back to the password.',
  ],
  [
    'backoffice-enrolment',
    enrolmentMachine,
    '/operateur/inscription/:token: the link read (the TOTP secret), then the password and a first code; a link refused says so for good.',
  ],
  [
    'backoffice-operatorDirectory',
    operatorDirectoryMachine,
    "Administration › Opérateurs: the list, an operator's roles changed, a deactivation after a confirmation.",
  ],
  [
    'backoffice-operatorInvite',
    operatorInviteMachine,
    '« Inviter un opérateur »: sent once, the single-use link shown until closed, then forgotten.',
  ],
  [
    'backoffice-apiKeys',
    apiKeysMachine,
    'Administration › Clés d’API: the list, a named key created and shown once, a key revoked after a confirmation.',
  ],
  [
    'backoffice-journal',
    journalMachine,
    'Administration › Journal: filters and pages (the rows kept while the next load), « Exporter en CSV » with the same filters.',
  ],
  [
    'backoffice-myPasskeys',
    myPasskeysMachine,
    '« Mes clés d’accès »: the operator’s passkeys, one added through the browser’s prompt, one removed after a confirmation.',
  ],
  ['backoffice-queues', queuesMachine, "The back office's dashboard: the queues, read again every minute, with « Réessayer »."],
  [
    'backoffice-clientSearch',
    clientSearchMachine,
    'Clients: the search, page 1 again for a new one, the results kept while the next load, « Réessayer ».',
  ],
  [
    'backoffice-clientOrder',
    clientOrderMachine,
    'Clients › an order’s page: the order and its timeline read side by side, each failing on its own; the timeline’s pages.',
  ],
  [
    'backoffice-newClient',
    newClientMachine,
    '« Nouveau client »: checked here first, sent once, the refusal at its field, the new order’s page once created.',
  ],
  [
    'backoffice-scanQueue',
    scanQueueMachine,
    'Numérisation: the shared queue (read again while a scan is read), the files uploaded one request each with progress, « Publier les confirmés ».',
  ],
  [
    'backoffice-scanReview',
    scanReviewMachine,
    'Numérisation › a scan: order, sender and kind confirmed or changed, « Publier » once confirmed, « Supprimer » after a confirmation.',
  ],
  [
    'backoffice-orderPicker',
    orderPickerMachine,
    'The order of a scan or a package: searched a moment after the typing stops, « Réessayer ».',
  ],
  [
    'backoffice-packageDesk',
    packageDeskMachine,
    'Colis: the packages waiting per order, an arrival registered (the list read again), a package handed over leaving the list.',
  ],
  [
    'backoffice-handover',
    handoverMachine,
    'Colis › « Remis »: who may collect it read first, the collector from that list, the identity checked, the date and time.',
  ],
  [
    'backoffice-forwarding',
    forwardingMachine,
    'Réexpéditions: the pending requests, one at a time « Expédié » (carrier, tracking number) or « Impossible » (a reason).',
  ],
  [
    'backoffice-justificatifReview',
    justificatifReviewMachine,
    'Justificatifs: one document opened, « Valider » or « Refuser » with a reason; replaced meanwhile, told and the new file shown.',
  ],
  [
    'backoffice-formalities',
    formalitiesMachine,
    'Formalités juridiques: each submission moved on one step with one button; moved meanwhile, the list read again.',
  ],
  [
    'backoffice-conversations',
    conversationsMachine,
    'Messages: the conversations open first (or the closed ones; the address’s one opened once read), one read, an answer never blank, « Clore », « Rouvrir ».',
  ],
  [
    'backoffice-terminations',
    terminationsMachine,
    'Résiliations: waiting first; « Accepter » with an end date checked as the server does, or « Contacter le client », which goes to the conversation.',
  ],
]

const id = (node: AnyStateNode) => node.id.replace(/[^A-Za-z0-9_]/g, '_')
const label = (text: string) => text.replace(/[:;"]/g, ' ').trim()

function guardText(guard: unknown): string {
  if (!guard) return ''
  if (typeof guard === 'string') return ` [${guard}]`
  if (typeof guard === 'object' && guard && 'type' in guard) return ` [${String((guard as { type: string }).type)}]`
  return ' [guard]'
}

function eventText(eventType: string): string {
  if (eventType === '') return 'always'
  if (eventType.startsWith('xstate.done.actor.')) return `done ${eventType.slice('xstate.done.actor.'.length)}`
  if (eventType.startsWith('xstate.error.actor.')) return `error ${eventType.slice('xstate.error.actor.'.length)}`
  if (eventType.startsWith('xstate.done.state.')) return 'done'
  return eventType
}

function draw(node: AnyStateNode, lines: string[], indent: string) {
  const children = Object.values(node.states) as AnyStateNode[]
  if (node.type === 'parallel') {
    children.forEach((region, index) => {
      if (index > 0) lines.push(`${indent}--`)
      lines.push(`${indent}state "${region.key}" as ${id(region)} {`)
      draw(region, lines, indent + '  ')
      lines.push(`${indent}}`)
    })
  } else {
    const initial = node.initial?.target?.[0] as AnyStateNode | undefined
    if (initial) lines.push(`${indent}[*] --> ${id(initial)}`)
    for (const child of children) {
      if (child.type === 'compound' || child.type === 'parallel') {
        lines.push(`${indent}state "${child.key}" as ${id(child)} {`)
        draw(child, lines, indent + '  ')
        lines.push(`${indent}}`)
      } else {
        lines.push(`${indent}state "${child.key}" as ${id(child)}`)
      }
      if (child.type === 'final') lines.push(`${indent}${id(child)} --> [*]`)
    }
  }
}

function transitions(node: AnyStateNode, lines: string[]) {
  for (const invoke of node.invoke) lines.push(`  note right of ${id(node)} : invokes ${label(String(invoke.src))} (${invoke.id})`)
  // The machine's own transitions (handled in every state) are listed under the diagram.
  const all = node.parent ? [...node.transitions.values()].flat() : []
  for (const transition of [...all, ...(node.always ?? [])]) {
    const targets = (transition.target ?? []) as AnyStateNode[]
    const text = label(eventText(transition.eventType) + guardText(transition.guard))
    if (targets.length === 0) lines.push(`  ${id(node)} --> ${id(node)} : ${text} (no change of state)`)
    for (const target of targets) lines.push(`  ${id(node)} --> ${id(target)} : ${text}`)
  }
  for (const child of Object.values(node.states) as AnyStateNode[]) transitions(child, lines)
}

export function mermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2']
  draw(machine.root, lines, '  ')
  transitions(machine.root, lines)
  return lines.join('\n')
}

function everywhere(machine: AnyStateMachine): string {
  const all = [...machine.root.transitions.values()].flat()
  if (all.length === 0) return ''
  const items = all.map((t) => {
    const targets = ((t.target ?? []) as AnyStateNode[]).map((n) => n.path.join('.') || machine.id)
    return `- \`${eventText(t.eventType)}\`${guardText(t.guard)}: ${targets.length ? `goes to \`${targets.join(', ')}\`${t.reenter ? ' (re-entered)' : ''}` : 'no change of state'}`
  })
  return `\nIn every state:\n\n${items.join('\n')}\n`
}

/** The module a diagram is drawn from: the back office's under src/backoffice/machines/<area>/. */
function sourceOf(file: string): string {
  if (!file.startsWith('backoffice-')) return `src/machines/${file}.machine.ts`
  const name = `${file.slice('backoffice-'.length)}.machine.ts`
  const found = readdirSync(join(import.meta.dirname, '..', 'src', 'backoffice', 'machines'), { recursive: true, encoding: 'utf8' }).find(
    (path) => path.endsWith(`/${name}`),
  )
  return `src/backoffice/machines/${found ?? name}`
}

function page(file: string, machine: AnyStateMachine, what: string): string {
  return `# ${machine.id}

${what}

Drawn from \`${sourceOf(file)}\` by \`npm run diagrams\`; do not edit by hand.

\`\`\`mermaid
${mermaid(machine)}
\`\`\`
${everywhere(machine)}`
}

const dir = join(import.meta.dirname, '..', 'docs', 'diagrams')
const check = process.argv.includes('--check')
const stale: string[] = []
for (const [file, machine, what] of machines) {
  const path = join(dir, `${file}.md`)
  const text = page(file, machine, what)
  if (check) {
    const current = await readFile(path, 'utf8').catch(() => '')
    if (current !== text) stale.push(`docs/diagrams/${file}.md`)
  } else {
    await writeFile(path, text)
  }
}
const index = `# State diagrams\n\nOne per statechart, drawn from the code by \`npm run diagrams\` (checked by \`npm test\`).\n\n${machines.map(([file, machine, what]) => `- [${machine.id}](${file}.md): ${what}`).join('\n')}\n`
if (check) {
  if ((await readFile(join(dir, 'README.md'), 'utf8').catch(() => '')) !== index) stale.push('docs/diagrams/README.md')
  if (stale.length) {
    console.error(`Ces diagrammes ne correspondent plus au code : ${stale.join(', ')}. Lancez npm run diagrams.`)
    process.exit(1)
  }
  console.log('Les diagrammes d’états sont à jour.')
} else {
  await writeFile(join(dir, 'README.md'), index)
  console.log(`${machines.length} diagrammes écrits dans docs/diagrams/`)
}
