// The notification settings of a config snapshot (issue 15): the email settings with their SMTP
// password, and the webhooks with their URLs, credential headers and secret custom fields, all
// opened in the snapshot (which config-crypto.ts encrypts with the passphrase) and sealed again
// with this instance's key on import, through the repositories that own the sealing.
import { z } from 'zod'
import {
  WEBHOOK_METHODS,
  WEBHOOK_SERVICES,
  type EmailConfig,
  type Webhook,
} from '../../shared/model/notifications.ts'
import { createEmailRepo } from '../store/email-repo.ts'
import { createWebhookRepo } from '../store/webhook-repo.ts'
import type { AnySection, SectionHandler } from './config-sections.ts'

/** Webhooks a file may hold; far above any real estate's. */
const WEBHOOKS_MAX = 1000

const int = (min: number, max: number) => z.number().int().min(min).max(max)
const stringMap = z.record(z.string().min(1).max(200), z.string().max(4096))

// The stored settings with the password opened ('' when none is stored).
const emailSchema: z.ZodType<EmailConfig> = z.strictObject({
  enabled: z.boolean(),
  provider: z.string().max(100),
  server: z.string().max(253),
  port: int(1, 65535),
  username: z.string().max(320),
  password: z.string().max(1024),
  from: z.string().max(320),
  to: z.array(z.string().max(320)).max(50),
  tls: z.boolean(),
  startTLS: z.boolean(),
  replyTo: z.string().max(320),
  rateLimit: int(1, 600),
  maxRetries: int(0, 5),
  retryDelay: int(1, 60),
})

const emailSection: SectionHandler<EmailConfig> = {
  key: 'email',
  tables: ['email_config'],
  schema: emailSchema,
  // A file from before notifications: the settings go back to the defaults.
  optional: true,
  read({ db, box }) {
    const {
      hasPassword: _has,
      clearPassword: _clear,
      ...config
    } = createEmailRepo(db, box).getResolved()
    return config
  },
  write({ db, box, now }, config) {
    if (!config) {
      db.prepare('DELETE FROM email_config').run()
      return
    }
    // The file's password exactly: '' means none (not "keep this instance's").
    createEmailRepo(db, box).save({ ...config, clearPassword: config.password === '' }, now)
  },
  describe: (config) =>
    config.enabled ? `email to ${config.to.length || 1} recipient(s)` : 'email off',
}

// A webhook with every secret opened (the sender's view).
const webhookSchema: z.ZodType<Webhook> = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(100),
  url: z
    .string()
    .max(2048)
    .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), 'must be an http(s) URL'),
  method: z.enum(WEBHOOK_METHODS),
  headers: stringMap,
  enabled: z.boolean(),
  service: z.enum(WEBHOOK_SERVICES),
  template: z.string().max(64 * 1024),
  customFields: stringMap,
  secretFields: z.array(z.string().min(1).max(200)).max(50),
})

const webhooksSection: SectionHandler<Webhook[]> = {
  key: 'webhooks',
  tables: ['webhooks'],
  schema: z
    .array(webhookSchema)
    .max(WEBHOOKS_MAX)
    .superRefine((hooks, ctx) => {
      const seen = new Set<string>()
      hooks.forEach((hook, index) => {
        if (seen.has(hook.id))
          ctx.addIssue({ code: 'custom', message: 'duplicate id', path: [index] })
        seen.add(hook.id)
      })
    }),
  optional: true,
  read: ({ db, box }) => createWebhookRepo(db, box).listResolved(),
  write({ db, box, now }, webhooks = []) {
    createWebhookRepo(db, box).replaceAll(webhooks, now)
  },
  describe: (webhooks) => `${webhooks.length} webhook(s)`,
}

export const NOTIFY_SECTIONS: readonly AnySection[] = [
  emailSection as unknown as AnySection,
  webhooksSection as unknown as AnySection,
]
