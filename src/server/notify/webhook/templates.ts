// The ten webhook services (wire-protocol.md §3.7.1): URL pattern, method, headers, instructions,
// required custom fields and the payload as a Liquid template. Every value that lands in JSON goes
// through `| json` (JSON.stringify), so a resource name with quotes, backslashes or newlines keeps
// the payload parseable; ntfy alone is plain text. Variables: template-data.ts.
import type { WebhookService, WebhookTemplate } from '../../../shared/model/notifications.ts'

const JSON_HEADERS = { 'Content-Type': 'application/json' }

// Discord: critical red, warning orange, else blue (the reference's); resolved green.
const DISCORD = `{
  "username": "Pulse Monitoring",
  "embeds": [{
    "title": {{ Title | truncate: 256 | json }},{% if ResourceURL != "" %}
    "url": {{ ResourceURL | json }},{% endif %}
    "description": {{ Message | truncate: 4000 | json }},
    "color": {% if Resolved %}3066993{% elsif Level == "critical" %}15158332{% elsif Level == "warning" %}15105570{% else %}3447003{% endif %},
    "fields": [
      {"name": "Resource", "value": {{ ResourceName | default: "-" | truncate: 1000 | json }}, "inline": true},
      {"name": "Node", "value": {{ Node | default: "-" | truncate: 1000 | json }}, "inline": true},
      {"name": "Type", "value": {{ Type | json }}, "inline": true},
      {"name": "Value", "value": {{ ValueFormatted | json }}, "inline": true},
      {"name": "Threshold", "value": {{ ThresholdFormatted | json }}, "inline": true},
      {"name": "Duration", "value": {{ Duration | json }}, "inline": true}
    ],
    "timestamp": {{ Timestamp | json }},
    "footer": {"text": {{ "Pulse Monitoring · " | append: ID | truncate: 2000 | json }}}
  }]
}`

const SLACK = `{
  "text": {{ Title | json }},
  "blocks": [
    {"type": "header", "text": {"type": "plain_text", "text": {{ Title | truncate: 150 | json }}}},
    {"type": "section", "text": {"type": "mrkdwn", "text": {{ Message | truncate: 2900 | json }}}},
    {"type": "section", "fields": [
      {"type": "mrkdwn", "text": {{ "*Resource:*\\n" | append: ResourceName | truncate: 1900 | json }}},
      {"type": "mrkdwn", "text": {{ "*Node:*\\n" | append: Node | truncate: 1900 | json }}},
      {"type": "mrkdwn", "text": {{ "*Value:*\\n" | append: ValueFormatted | json }}},
      {"type": "mrkdwn", "text": {{ "*Threshold:*\\n" | append: ThresholdFormatted | json }}}
    ]},
    {"type": "context", "elements": [{"type": "mrkdwn", "text": {{ "Pulse Monitoring · " | append: Duration | append: " · " | append: Timestamp | json }}}{% if ResourceURL != "" %}, {"type": "mrkdwn", "text": {{ "<" | append: ResourceURL | append: "|Open in Pulse>" | json }}}{% endif %}]}
  ]
}`

const TELEGRAM_TEXT = `{% capture text %}*{{ Title | md }}*
{{ Message | md }}

Resource: {{ ResourceName | md }}
Node: {{ Node | md }}
Value: {{ ValueFormatted | md }} (threshold {{ ThresholdFormatted | md }})
Duration: {{ Duration }}{% endcapture %}{
  "chat_id": {{ ChatID | json }},
  "text": {{ text | truncate: 4000 | json }},
  "parse_mode": "Markdown",
  "disable_web_page_preview": true
}`

const FACTS = `[
        {"name": "Resource", "value": {{ ResourceName | json }}},
        {"name": "Node", "value": {{ Node | json }}},
        {"name": "Type", "value": {{ Type | json }}},
        {"name": "Value", "value": {{ ValueFormatted | json }}},
        {"name": "Threshold", "value": {{ ThresholdFormatted | json }}},
        {"name": "Duration", "value": {{ Duration | json }}}
      ]`

const TEAMS = `{
  "@type": "MessageCard",
  "@context": "https://schema.org/extensions",
  "themeColor": {% if Resolved %}"2EB886"{% elsif Level == "critical" %}"E81123"{% else %}"FF8C00"{% endif %},
  "summary": {{ Title | json }},
  "sections": [{
    "activityTitle": {{ Title | json }},
    "activitySubtitle": {{ Timestamp | json }},
    "text": {{ Message | json }},
    "facts": ${FACTS},
    "markdown": true
  }],
  "potentialAction": [{% if ResourceURL != "" or Instance != "" %}{"@type": "OpenUri", "name": "Open Pulse", "targets": [{"os": "default", "uri": {{ ResourceURL | default: Instance | json }}}]}{% endif %}]
}`

const TEAMS_ADAPTIVE = `{
  "type": "message",
  "attachments": [{
    "contentType": "application/vnd.microsoft.card.adaptive",
    "contentUrl": null,
    "content": {
      "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
      "type": "AdaptiveCard",
      "version": "1.4",
      "body": [
        {"type": "TextBlock", "text": {{ Title | json }}, "weight": "Bolder", "size": "Medium", "wrap": true, "color": {% if Resolved %}"Good"{% elsif Level == "critical" %}"Attention"{% else %}"Warning"{% endif %}},
        {"type": "TextBlock", "text": {{ Message | json }}, "wrap": true},
        {"type": "FactSet", "facts": [
          {"title": "Resource", "value": {{ ResourceName | json }}},
          {"title": "Node", "value": {{ Node | json }}},
          {"title": "Type", "value": {{ Type | json }}},
          {"title": "Value", "value": {{ ValueFormatted | json }}},
          {"title": "Threshold", "value": {{ ThresholdFormatted | json }}},
          {"title": "Duration", "value": {{ Duration | json }}}
        ]}
      ],
      "actions": [{% if ResourceURL != "" or Instance != "" %}{"type": "Action.OpenUrl", "title": "Open Pulse", "url": {{ ResourceURL | default: Instance | json }}}{% endif %}]
    }
  }]
}`

const PAGERDUTY = `{
  "routing_key": {{ RoutingKey | json }},
  "event_action": {{ EventAction | json }},
  "dedup_key": {{ DedupKey | json }},
  "payload": {
    "summary": {{ Title | truncate: 1000 | json }},
    "timestamp": {{ Timestamp | json }},
    "severity": {{ Severity | json }},
    "source": {{ ResourceName | default: Node | default: "pulse" | json }},
    "component": {{ ResourceName | json }},
    "group": {{ Node | json }},
    "class": {{ Type | json }},
    "custom_details": {
      "alert_id": {{ ID | json }},
      "level": {{ Level | json }},
      "message": {{ Message | json }},
      "value": {{ Value | json }},
      "threshold": {{ Threshold | json }},
      "resource_id": {{ ResourceID | json }},
      "instance": {{ Instance | json }},
      "start_time": {{ StartTime | json }},
      "duration": {{ Duration | json }},
      "alert_count": {{ AlertCount | json }}
    }
  },
  "client": "Pulse Monitoring",
  "client_url": {{ Instance | json }},
  "links": [{% if ResourceURL != "" or Instance != "" %}{"href": {{ ResourceURL | default: Instance | json }}, "text": "Open Pulse"}{% endif %}]
}`

// The plain-text message: ntfy's body, Pushover's message.
const PLAIN_TEXT = `{{ Message }}

Resource: {{ ResourceName }}
Node: {{ Node }}
Value: {{ ValueFormatted }} (threshold {{ ThresholdFormatted }})
Duration: {{ Duration }}`

// Pushover: the message lists resource, node, value and duration (the ntfy text); priority is
// the custom field `priority` (-2..2, checked on save; anything else falls back) over the level's
// default, -1 for a recovery (the reference's); emergency (2) needs retry and expire.
const PUSHOVER = `{% capture text %}${PLAIN_TEXT}{% endcapture %}{% assign p = CustomFields.priority %}{% if Resolved %}{% assign p = "-1" %}{% elsif p == "-2" or p == "-1" or p == "0" or p == "1" or p == "2" %}{% elsif Level == "critical" %}{% assign p = "1" %}{% else %}{% assign p = "0" %}{% endif %}{
  "token": {{ CustomFields.app_token | json }},
  "user": {{ CustomFields.user_token | json }},
  "title": {{ Title | truncate: 250 | json }},
  "message": {{ text | truncate: 1024 | json }},
  "priority": {{ p }},
  {% if p == "2" %}"retry": 60, "expire": 3600,{% endif %}
  {% if CustomFields.sound %}"sound": {{ CustomFields.sound | json }},{% endif %}
  {% if CustomFields.device %}"device": {{ CustomFields.device | json }},{% endif %}
  {% if ResourceURL != "" or Instance != "" %}"url": {{ ResourceURL | default: Instance | json }},{% endif %}
  "timestamp": {{ TimestampUnix | json }}
}`

const GOTIFY = `{
  "title": {{ Title | json }},
  "message": {{ Message | json }},
  "priority": {% if Resolved %}2{% elsif Level == "critical" %}10{% else %}5{% endif %},
  "extras": {
    "client::display": {"contentType": "text/plain"},
    "pulse": {"alertId": {{ ID | json }}, "level": {{ Level | json }}, "type": {{ Type | json }}, "resource": {{ ResourceName | json }}, "node": {{ Node | json }}, "event": {{ Event | json }}}
  }
}`

export const WEBHOOK_TEMPLATES: readonly WebhookTemplate[] = [
  {
    service: 'generic',
    name: 'Generic webhook',
    urlPattern: 'https://example.com/webhook',
    method: 'POST',
    headers: JSON_HEADERS,
    // No template: the generic payload is built in code, one schema for every message
    // (generic-payload.ts, README "Generic webhook payload"). A template of your own replaces it.
    payloadTemplate: '',
    instructions:
      "Any HTTP endpoint that accepts JSON: it receives Pulse's generic payload (every alert of the message with its event). Add headers for authentication if needed, or a template of your own.",
    requiredFields: [],
  },
  {
    service: 'discord',
    name: 'Discord',
    urlPattern: 'https://discord.com/api/webhooks/{webhook_id}/{webhook_token}',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: DISCORD,
    instructions: 'Server Settings → Integrations → Webhooks → New Webhook, then copy its URL.',
    requiredFields: [],
  },
  {
    service: 'slack',
    name: 'Slack',
    urlPattern: 'https://hooks.slack.com/services/{webhook_path}',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: SLACK,
    instructions: 'Create an app with Incoming Webhooks enabled and add a webhook to a channel.',
    requiredFields: [],
  },
  {
    service: 'telegram',
    name: 'Telegram',
    urlPattern: 'https://api.telegram.org/bot{bot_token}/sendMessage?chat_id={chat_id}',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: TELEGRAM_TEXT,
    instructions:
      'Create a bot with @BotFather for its token; the numeric chat_id (negative for groups) goes in the URL and is sent in the payload.',
    requiredFields: [],
  },
  {
    service: 'teams',
    name: 'Microsoft Teams',
    urlPattern: 'https://{tenant}.webhook.office.com/webhookb2/{webhook_path}',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: TEAMS,
    instructions: 'Channel → Connectors (or Workflows) → Incoming Webhook, then copy its URL.',
    requiredFields: [],
  },
  {
    service: 'teams-adaptive',
    name: 'Microsoft Teams (Adaptive Card)',
    urlPattern: 'https://{tenant}.webhook.office.com/webhookb2/{webhook_path}',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: TEAMS_ADAPTIVE,
    instructions: 'As Teams, for workflows that expect an Adaptive Card (version 1.4).',
    requiredFields: [],
  },
  {
    service: 'pagerduty',
    name: 'PagerDuty',
    urlPattern: 'https://events.pagerduty.com/v2/enqueue',
    method: 'POST',
    headers: { ...JSON_HEADERS, Accept: 'application/vnd.pagerduty+json;version=2' },
    payloadTemplate: PAGERDUTY,
    instructions:
      'Add an Events API v2 integration to a service and put its integration key in the custom field routing_key.',
    requiredFields: [],
  },
  {
    service: 'pushover',
    name: 'Pushover',
    urlPattern: 'https://api.pushover.net/1/messages.json',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: PUSHOVER,
    instructions:
      'Create an application at pushover.net: its API token goes in app_token, your user key in user_token (optional: sound, device, priority -2 to 2; 2 repeats every 60 s for an hour until acknowledged).',
    requiredFields: ['app_token', 'user_token'],
  },
  {
    service: 'gotify',
    name: 'Gotify',
    urlPattern: 'https://{server}/message?token={app_token}',
    method: 'POST',
    headers: JSON_HEADERS,
    payloadTemplate: GOTIFY,
    instructions: 'Create an application in Gotify and put its token in the URL.',
    requiredFields: [],
  },
  {
    service: 'ntfy',
    name: 'ntfy',
    urlPattern: 'https://ntfy.sh/{topic}',
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    payloadTemplate: PLAIN_TEXT,
    instructions:
      'Pick a hard-to-guess topic (anyone who knows it can read it) or your own server; add an Authorization header for protected topics.',
    requiredFields: [],
  },
]

const BY_SERVICE = new Map(WEBHOOK_TEMPLATES.map((t) => [t.service, t]))

export function webhookTemplate(service: WebhookService): WebhookTemplate {
  return BY_SERVICE.get(service) ?? BY_SERVICE.get('generic')!
}
