// The Kysely view of the database (see migrations/ for how it came to be).
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely'
import type { OperatorRole } from '../contract/route-def.ts'
import type { RefusalReason } from '../contract/rules/justificatifs.ts'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>
type Json<T> = ColumnType<T, string, string>

export interface MissingDocumentRow {
  type: string
  label: string
}

export interface Database {
  app_meta: { key: string; value: string }
  users: {
    id: Generated<number>
    email: string
    password_hash: string
    firstname: string
    lastname: string
    phone: string | null
    payment_customer_id: string | null
    /** Proven by its owner (a link mailed to it followed), or only typed (an address change): migration 014. */
    email_verified: Generated<boolean>
    created_at: CreatedAt
    /** 070: closed by its holder: the row stays for the orders and invoices the law keeps, emptied of personal data. */
    closed_at: Timestamp | null
  }
  api_tokens: {
    id: Generated<number>
    user_id: number
    token_hash: string
    expires_at: Timestamp
    created_at: CreatedAt
    // people: the device behind a session
    user_agent: string | null
    last_used_at: Timestamp | null
  }
  password_resets: {
    id: Generated<number>
    user_id: number
    token_hash: string
    expires_at: Timestamp
    used_at: Timestamp | null
    created_at: CreatedAt
  }
  // « Ce n’était pas vous ? » (migration 013): the link mailed to the address left at each change
  email_change_reverts: {
    id: Generated<number>
    user_id: number
    token_hash: string
    old_email: string
    new_email: string
    created_at: CreatedAt
    expires_at: Timestamp
    used_at: Timestamp | null
  }
  orders: {
    id: Generated<number>
    owner_id: number
    raison_sociale: string
    order_date: Timestamp
    status: string
    has_kbis: Generated<boolean>
    missing_documents: Json<MissingDocumentRow[] | null> | null
    missing_documents_validated_at: Timestamp | null
    subscription_id: string | null
    siren: string | null
    legal_form: string | null
    domiciliation_address: string
    qonto: Generated<boolean>
    shine: Generated<boolean>
    want_comptable_at: Timestamp | null
    /** 007: bumped by the database at each change to the order's letters or name (the mail list's version; int8, read as text). */
    mail_version: Generated<string>
    /**
     * 008: bumped by the database at each change to what the orders list shows of the order (its columns, its contracts; int8, read as
     * text).
     */
    list_version: Generated<string>
    /** 022: the day the domiciliation starts, for an order made in the back office (null before). */
    starts_on: ColumnType<string | null, string | null | undefined, string | null>
  }
  contracts: {
    id: Generated<number>
    order_id: number
    adresse_postale_expedition: string | null
    adresse_complement_postale_expedition: string | null
    code_postale_expedition: string | null
    ville_postale_expedition: string | null
    pays_postale_expedition: string | null
    kbis_file_key: string | null
    signed_at: Timestamp | null
    /** notifications (006): when an operator validated the Kbis filed. */
    kbis_validated_at: Timestamp | null
    /** 022: when the Kbis on file was filed; set by the database at each new file. */
    kbis_filed_at: Timestamp | null
    /** 090: an operator refused the Kbis on file (Justificatifs), with a reason; cleared by the next file. */
    kbis_refused_at: Timestamp | null
    kbis_refusal_reason: RefusalReason | null
    kbis_refusal_detail: string | null
  }
  shares: {
    id: Generated<number>
    order_id: number
    email: string
    user_id: number | null
    created_at: CreatedAt
    // people: an invitation until accepted (user_id set then)
    invited_by: number | null
    invitation_token_hash: string | null
    invitation_expires_at: Timestamp | null
    invitation_sent_at: Timestamp | null
    accepted_at: Timestamp | null
  }
  mandataires: {
    id: Generated<number>
    order_id: number
    firstname: string
    lastname: string
    email: string
    phone: string
    created_at: CreatedAt
  }
  folders: { id: Generated<number>; order_id: number; name: string; created_at: CreatedAt }
  documents: {
    id: Generated<number>
    order_id: number
    sender: string
    kind: 'courrier' | 'recommandé' | 'administratif'
    received_at: Timestamp
    pages: number
    read: Generated<boolean>
    deleted: Generated<boolean>
    folder_id: number | null
    file_key: string
    // mail pipeline: filled by the letter's background job
    page_images: Generated<number>
    text: string | null
    searchable: Generated<boolean>
    deadline_date: ColumnType<Date, string, string> | null
    deadline_amount_cents: number | null
    search_vector: ColumnType<string, never, never>
  }
  packages: {
    id: Generated<number>
    order_id: number
    received_at: Timestamp
    carrier: string
    sender: string
    status: 'À retirer' | 'Réexpédié' | 'Retiré'
    // 030: the photo taken at arrival, and the handover at the desk
    photo_file_key: string | null
    photo_type: string | null
    collected_at: Timestamp | null
    collected_by: string | null
    collector_kind: 'titulaire' | 'mandataire' | null
    collector_mandataire_id: number | null
    identity_checked: boolean | null
    handed_over_by: number | null
  }
  /** An operator's letter, package (migration 011) or invoice (migration 015) sent with an Idempotency-Key. */
  operator_requests: {
    kind: 'document' | 'package' | 'invoice'
    key: string
    fingerprint: string
    document_id: number | null
    package_id: number | null
    invoice_id: Generated<number | null>
    created_at: Generated<Timestamp>
  }
  courier_requests: {
    id: Generated<number>
    order_id: number
    kind: 'réexpédition' | 'scan'
    status: 'en attente' | 'traitée'
    letter_count: number
    created_at: CreatedAt
    // 030: what the mail room did with it
    processed_at: Timestamp | null
    processed_by: number | null
    outcome: 'expédiée' | 'impossible' | null
    carrier: string | null
    tracking_number: string | null
    impossible_reason: string | null
  }
  /** 030: the letters a forwarding request sends on. */
  courier_request_letters: { request_id: number; document_id: number }
  invoices: {
    id: Generated<number>
    order_id: number
    number: string
    date: Timestamp
    amount_excl_tax_cents: number
    amount_incl_tax_cents: number
    paid_at: Timestamp | null
    payment_reference: string | null
    file_key: string
    /** billing (002): the payment attempt that claimed this unpaid invoice. */
    payment_attempt_id: number | null
  }
  credit_notes: {
    id: Generated<number>
    order_id: number
    invoice_id: number | null
    number: string
    date: Timestamp
    amount_excl_tax_cents: number
    amount_incl_tax_cents: number
    file_key: string
  }
  calendar_invoices: {
    id: Generated<number>
    order_id: number
    date: Timestamp
    room: string
    hours: number
    amount_incl_tax_cents: number
    paid: boolean
    /** company area (004_company): the invoice that bills the booking. */
    invoice_id: number | null
  }
  uploaded_documents: {
    id: Generated<number>
    order_id: number
    type: string
    label: string
    file_name: string
    content_type: string
    file_key: string
    uploaded_at: Timestamp
    /** 090: an operator's check (Justificatifs): validated, or refused with a reason; a new file clears both. */
    validated_at: Timestamp | null
    refused_at: Timestamp | null
    refusal_reason: RefusalReason | null
    refusal_detail: string | null
  }
  problem_reports: { id: Generated<number>; order_id: number; user_id: number; message: string; created_at: CreatedAt }
  termination_requests: {
    id: Generated<number>
    order_id: number
    user_id: number
    reason: string
    date: string
    comment: string | null
    created_at: CreatedAt
    /** 100: accepted by an operator, for the day the domiciliation ends. */
    accepted_at: Timestamp | null
    accepted_by: number | null
    end_date: ColumnType<string | null, string | null, string | null>
    /** 100: the conversation an operator opened about it (« Contacter le client »). */
    conversation_id: number | null
  }
  option_requests: {
    id: Generated<number>
    order_id: number
    user_id: number
    plan_id: string
    expires_at: Timestamp
    confirmed_at: Timestamp | null
    created_at: CreatedAt
  }
  outbox: {
    id: Generated<number>
    to_address: string
    subject: string
    text: string
    attachments: Json<string[]>
    created_at: CreatedAt
  }
  /** count: the hits (or, for an attempt limit, the failures) of the window; pending: attempts being checked now. */
  rate_limits: { key: string; count: number; pending: Generated<number>; reset_at: Timestamp }
  // --- company area (004_company)
  legal_submissions: {
    id: Generated<number>
    order_id: number
    user_id: number
    kind: string
    status: Generated<string>
    comment: string | null
    created_at: CreatedAt
    started_at: Timestamp | null
    filed_at: Timestamp | null
    completed_at: Timestamp | null
  }
  test_payment_methods: {
    id: string
    /** billing (002): null until our API attaches the method to a customer. */
    customer_id: string | null
    brand: string
    last4: string
    exp_month: number
    exp_year: number
    created_at: CreatedAt
    /** billing (002): saved, but every charge on it is declined (Stripe's 4000 0000 0000 0341). */
    declines_charges: Generated<boolean>
  }
  test_customers: { id: string; default_payment_method: string | null }
  // --- people: passkeys and the WebAuthn challenges of their ceremonies
  passkeys: {
    id: Generated<number>
    user_id: number
    credential_id: string
    /** base64url of the COSE public key */
    public_key: string
    counter: ColumnType<string | number, number | undefined, number>
    transports: Json<string[]>
    name: string
    created_at: CreatedAt
    last_used_at: Timestamp | null
  }
  webauthn_challenges: {
    challenge: string
    kind: 'registration' | 'authentication'
    user_id: number | null
    /** 040: an operator's ceremony (never with user_id). */
    operator_id: Generated<number | null>
    expires_at: Timestamp
  }
  /** 040: the operators' passkeys, their second factor beside the authenticator app. */
  operator_passkeys: {
    id: Generated<number>
    operator_id: number
    credential_id: string
    /** base64url of the COSE public key */
    public_key: string
    counter: ColumnType<string | number, number | undefined, number>
    transports: Json<string[]>
    name: string
    created_at: CreatedAt
    last_used_at: Timestamp | null
  }
  test_subscriptions: {
    id: string
    customer_id: string
    status: string
    current_period_end: ColumnType<string | number, number, number>
    cancel_at_period_end: boolean
    default_payment_method: string | null
    items: Json<unknown>
    /** 100: cancelled at this instant (Unix seconds), as Stripe's `cancel_at`. */
    cancel_at: ColumnType<string | number | null, number | null | undefined, number | null>
  }
  test_charges: {
    id: string
    customer_id: string
    payment_method: string
    amount: number
    description: string
    created_at: CreatedAt
    /** billing (002): a repeat with the same key answers the first charge. */
    idempotency_key: string | null
  }

  // --- billing (002_billing)
  payment_attempts: {
    id: Generated<number>
    idempotency_key: string
    user_id: number
    customer_id: string
    payment_method_id: string
    amount_cents: number
    description: string
    status: Generated<'pending' | 'succeeded' | 'failed'>
    charge_id: string | null
    failure: string | null
    lease_expires_at: Timestamp
    created_at: CreatedAt
    settled_at: Timestamp | null
  }
  certificates: {
    id: Generated<number>
    code: string
    order_id: number
    issued_by: number
    issued_at: Timestamp
  }
  // mail pipeline
  jobs: {
    id: Generated<string>
    kind: string
    payload: ColumnType<unknown, string, string>
    state: Generated<'queued' | 'running' | 'done' | 'failed'>
    attempts: Generated<number>
    max_attempts: Generated<number>
    run_at: ColumnType<Date, Date | string | undefined, Date | string>
    locked_by: string | null
    locked_until: Timestamp | null
    last_error: string | null
    created_at: CreatedAt
    finished_at: Timestamp | null
  }
  document_pages: {
    document_id: number
    page: number
    file_key: string
    content_type: string
    width: number
    height: number
    bytes: number
  }

  // --- notifications (006_notifications)
  notifications: {
    id: Generated<number>
    order_id: number
    kind: 'letter' | 'package' | 'kbis' | 'invoice' | 'formality' | 'message'
    document_id: number | null
    package_id: number | null
    title: string
    body: string
    link: string
    created_at: CreatedAt
  }
  notification_reads: { notification_id: number; user_id: number; read_at: CreatedAt }
  notification_preferences: { user_id: number; order_id: number; email: 'each' | 'digest' | 'none' }
  notification_digests: { user_id: number; digest_sent_on: ColumnType<string, string, string>; covered_until: Timestamp }
  letter_history: {
    id: Generated<number>
    document_id: number
    kind: 'received' | 'scanned' | 'opened' | 'emailed' | 'moved' | 'forwarded'
    user_id: number | null
    detail: string | null
    at: ColumnType<Date, Date | string | undefined, Date | string>
  }
  /** The live notification streams open, in every instance (018_live_streams). */
  live_streams: {
    id: Generated<number>
    user_id: number
    /** The server instance that holds the stream (a name of its own per process). */
    instance: string
    opened_at: CreatedAt
    /** Moved on by that instance while it runs: an old one is a stopped instance's. */
    seen_at: ColumnType<Date, Date | string | undefined, Date | string>
  }

  // --- operators (019_operators): the back office's people
  operators: {
    id: Generated<number>
    email: string
    name: string
    password_hash: string | null
    roles: OperatorRole[]
    totp_secret: string
    totp_enrolled_at: Timestamp | null
    /** int8, read as text. */
    totp_last_step: ColumnType<string | null, string | number | null, string | number | null>
    active: Generated<boolean>
    created_at: CreatedAt
    deactivated_at: Timestamp | null
  }
  operator_sessions: {
    id: Generated<number>
    operator_id: number
    token_hash: string
    created_at: CreatedAt
    last_used_at: Timestamp
    ended_at: Timestamp | null
  }
  operator_enrolments: {
    id: Generated<number>
    operator_id: number
    token_hash: string
    created_at: CreatedAt
    expires_at: Timestamp
    used_at: Timestamp | null
  }
  /** 020: one row per operator write; the database refuses any UPDATE, DELETE or TRUNCATE of it. */
  journal: {
    id: Generated<number>
    at: Timestamp
    operator_id: number | null
    /** 021: the API key behind a machine's call (null with operator_id too: the bootstrap OPERATOR_TOKEN). */
    api_key_id: number | null
    action: string
    order_id: number | null
    summary: string
    before: Json<unknown> | null
    after: Json<unknown> | null
    /** 070: written by no operator nor key: the automatic mail retention, or a customer closing their account. */
    system_actor: JournalSystemActor | null
  }
  /** 021: the machines' keys, kept as their SHA-256. */
  api_keys: {
    id: Generated<number>
    name: string
    key_hash: string
    prefix: string
    created_by: number
    created_at: CreatedAt
    revoked_at: Timestamp | null
    last_used_at: Timestamp | null
  }
  /** 030: the scans waiting in the mail room, read by the letter pipeline's job, published once as letters. */
  mail_scans: {
    id: Generated<number>
    file_key: string
    file_name: string
    pages: number
    uploaded_by: number
    uploaded_at: Timestamp
    /** int8, read as text. */
    job_id: ColumnType<string | null, string | null, string | null>
    reading: Generated<'en cours' | 'terminée' | 'échouée'>
    text: string | null
    suggested_order_id: number | null
    suggestion_confidence: 'sûr' | 'probable' | 'possible' | null
    suggestion_reason: string | null
    suggested_sender: string | null
    order_id: number | null
    sender: string | null
    kind: Generated<'courrier' | 'recommandé' | 'administratif'>
    confirmed_at: Timestamp | null
    confirmed_by: number | null
    state: Generated<'waiting' | 'published'>
    published_at: Timestamp | null
    published_by: number | null
    document_id: number | null
  }
  /** 100: a conversation of an order with the provider (every « Signaler un problème » starts one). */
  conversations: {
    id: Generated<number>
    order_id: number
    subject: string
    problem_report_id: number | null
    status: Generated<'open' | 'closed'>
    waiting_since: Timestamp | null
    created_at: CreatedAt
    last_message_at: ColumnType<Date, Date | string | undefined, Date | string>
    closed_at: Timestamp | null
    closed_by: number | null
  }
  conversation_messages: {
    id: Generated<number>
    conversation_id: number
    author_user_id: number | null
    author_operator_id: number | null
    body: string
    created_at: CreatedAt
  }
  mail_scan_pages: {
    scan_id: number
    page: number
    file_key: string
    content_type: string
    width: number
    height: number
    bytes: number
  }
  /** 070: a terminated order's mail retention: the notice e-mailed, then its letters deleted (services/retention.ts). */
  mail_retention: {
    order_id: number
    notice_claimed_until: Timestamp | null
    notice_sent_at: Timestamp | null
    purge_on: ColumnType<string | null, string | null | undefined, string | null>
    purged_at: Timestamp | null
    purged_letters: Generated<number>
  }
  operator_sign_in_tickets: {
    id: Generated<number>
    operator_id: number
    token_hash: string
    expires_at: Timestamp
    used_at: Timestamp | null
  }
  /** 080: « Mes données », the ZIP of a person's data prepared by a background job. */
  data_exports: {
    id: Generated<number>
    user_id: number
    job_id: string | null
    state: Generated<'preparing' | 'ready' | 'failed' | 'expired'>
    progress: Generated<number>
    file_key: string | null
    file_bytes: ColumnType<string | null, number | null | undefined, number | null>
    letters: number | null
    created_at: CreatedAt
    ready_at: Timestamp | null
    expires_at: Timestamp | null
  }
  /** 110: every stored file's size and SHA-256, recorded when written (services/checked-storage.ts). */
  stored_files: {
    key: string
    bytes: ColumnType<string, number, number>
    sha256: string
    stored_at: CreatedAt
  }
}

export type JournalSystemActor = 'retention' | 'customer'

/** What every repository function takes first: the database, or a transaction on it. */
export type Db = Kysely<Database> | Transaction<Database>

export type UserRow = Selectable<Database['users']>
export type OrderRow = Selectable<Database['orders']>
export type NewDocument = Insertable<Database['documents']>
