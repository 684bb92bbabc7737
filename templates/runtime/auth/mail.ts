/**
 * Messages the users-permissions plugin sends (reset password, email confirmation) and the
 * pluggable sender that delivers them. The server's src/email.ts (yours) chooses the sender;
 * the default writes each message to the server log.
 */

export interface MailMessage {
  readonly to: string;
  readonly from?: string;
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export type MailSender = (message: MailMessage) => Promise<void>;

/** The default sender: the message goes to the server log (stdout). */
export const logMailSender: MailSender = async (message) => {
  const lines = [
    'users-permissions: email (not sent: src/email.ts logs messages; plug in a real sender there)',
    `  to: ${message.to}`,
    ...(message.from ? [`  from: ${message.from}`] : []),
    ...(message.replyTo ? [`  reply-to: ${message.replyTo}`] : []),
    `  subject: ${message.subject}`,
    ...message.text.split('\n').map((line) => `  | ${line}`),
  ];
  console.log(lines.join('\n'));
};

export interface MailSettings {
  /** `Name <address>` or an address; absent means the sender's default. */
  readonly from: string | null;
  readonly replyTo: string | null;
}

/** Strapi's default reset-password email; `url` is `advanced.email_reset_password`. */
export function resetPasswordMessage(to: string, url: string | null, token: string, settings: MailSettings): MailMessage {
  const link = `${url ?? ''}?code=${token}`;
  const text = [
    'We heard that you lost your password. Sorry about that!',
    'But don’t worry! You can use the following link to reset your password:',
    link,
    'Thanks.',
  ];
  return message(to, 'Reset password', text, settings);
}

/** Strapi's default email-confirmation email; `url` is the server's confirmation route. */
export function confirmationMessage(to: string, url: string, token: string, settings: MailSettings): MailMessage {
  const text = [
    'Thank you for registering!',
    'You have to confirm your email address. Please click on the link below.',
    `${url}?confirmation=${token}`,
    'Thanks.',
  ];
  return message(to, 'Account confirmation', text, settings);
}

function message(to: string, subject: string, paragraphs: string[], settings: MailSettings): MailMessage {
  return {
    to,
    ...(settings.from ? { from: settings.from } : {}),
    ...(settings.replyTo ? { replyTo: settings.replyTo } : {}),
    subject,
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n'),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
