// The email provider list (wire-protocol.md §3.7): every named provider uses port 587 with
// STARTTLS and authentication; 'Custom SMTP Server' leaves the host to the user.
import type { EmailProvider } from '../../../shared/model/notifications.ts'

export const CUSTOM_SMTP_PROVIDER = 'Custom SMTP Server'

const submission = (name: string, smtpHost: string, instructions: string): EmailProvider => ({
  name,
  smtpHost,
  smtpPort: 587,
  tls: false,
  startTLS: true,
  authRequired: true,
  instructions,
})

/** The providers offered by the email card, in the reference's order. */
export const EMAIL_PROVIDERS: readonly EmailProvider[] = Object.freeze([
  submission(
    'Gmail / Google Workspace',
    'smtp.gmail.com',
    'Use your full Gmail address as username and an App Password (Google Account > Security > ' +
      '2-Step Verification > App passwords); your normal password is refused.',
  ),
  submission(
    'SendGrid',
    'smtp.sendgrid.net',
    "Username is the literal 'apikey'; the password is a SendGrid API key with Mail Send " +
      'permission. The From address must be a verified sender.',
  ),
  submission(
    'Mailgun',
    'smtp.mailgun.org',
    'Use the SMTP credentials of your sending domain (Sending > Domain settings > SMTP ' +
      'credentials), e.g. postmaster@mg.example.com.',
  ),
  submission(
    'Amazon SES (US East)',
    'email-smtp.us-east-1.amazonaws.com',
    'Create SMTP credentials in the SES console (they differ from IAM access keys) and verify ' +
      'the From address or domain; other regions use email-smtp.<region>.amazonaws.com.',
  ),
  submission(
    'Microsoft 365 / Outlook',
    'smtp.office365.com',
    'Use the full mailbox address as username; SMTP AUTH must be enabled for the mailbox, and ' +
      'accounts with MFA need an app password.',
  ),
  submission(
    'Brevo (formerly Sendinblue)',
    'smtp-relay.brevo.com',
    'Use your Brevo login as username and an SMTP key (SMTP & API > SMTP) as password.',
  ),
  submission(
    'Postmark',
    'smtp.postmarkapp.com',
    'Use a Server API token as both username and password; the From address must be a ' +
      'confirmed sender signature.',
  ),
  submission(
    'SparkPost',
    'smtp.sparkpostmail.com',
    "Username is the literal 'SMTP_Injection'; the password is an API key with Send via SMTP " +
      'permission.',
  ),
  submission(
    'Resend',
    'smtp.resend.com',
    "Username is the literal 'resend'; the password is a Resend API key. Verify your sending " +
      'domain first.',
  ),
  submission(
    'SMTP2GO',
    'mail.smtp2go.com',
    'Use the SMTP username and password of an SMTP user (Sending > SMTP Users).',
  ),
  {
    name: CUSTOM_SMTP_PROVIDER,
    smtpHost: '',
    smtpPort: 587,
    tls: false,
    startTLS: true,
    authRequired: false,
    instructions:
      'Enter your own server. Port 587 usually uses STARTTLS, port 465 implicit TLS, port 25 ' +
      'plain SMTP (relays on a trusted network).',
  },
])
