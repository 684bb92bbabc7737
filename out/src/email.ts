// Created once by contentgen; this file is yours to edit and is never overwritten.
/**
 * How this server sends email: reset-password codes (POST /api/auth/forgot-password) and,
 * when `advanced.email_confirmation` is on, confirmation links. By default each message is
 * written to the server log; replace the body of `sendMail` with your provider, e.g.
 *
 *   import nodemailer from 'nodemailer';
 *   const transport = nodemailer.createTransport(process.env.SMTP_URL);
 *   export const sendMail: MailSender = async (message) => { await transport.sendMail(message); };
 */
import type { MailSender } from './runtime/auth/mail.js';
import { logMailSender } from './runtime/auth/mail.js';

export const sendMail: MailSender = logMailSender;
