// Where a webhook may point: refused address forms (IPv4 tricks the URL parser canonicalises,
// IPv6 and mapped forms, metadata names), loopback only when allowed, private ranges allowed.
import { describe, expect, it } from 'vitest'
import {
  checkUrl,
  checkUrlResolved,
  refusedAddress,
} from '../../../../src/server/notify/webhook/url-safety.ts'

const strict = { allowLoopback: false }
const loopbackOk = { allowLoopback: true }

describe('checkUrl', () => {
  it.each([
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://127.1/',
    'http://127.0.0.1:8080/x',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://localhost/',
    'http://api.localhost./',
  ])('refuses loopback %s unless allowed', (url) => {
    const check = checkUrl(url, strict)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.error).toMatch(/loopback/)
    expect(checkUrl(url, loopbackOk).ok).toBe(true)
  })

  it.each([
    ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://0xa9fea9fe/', /metadata/],
    ['http://[::ffff:169.254.169.254]/', /metadata/],
    ['http://[::ffff:a9fe:a9fe]/', /metadata/],
    ['http://[64:ff9b::169.254.169.254]/', /metadata/],
    ['http://100.100.100.200/', /metadata/],
    ['http://[fd00:ec2::254]/', /metadata/],
    ['http://metadata.google.internal/computeMetadata/v1/', /metadata/],
    ['http://METADATA.GOOGLE.INTERNAL./', /metadata/],
    ['http://169.254.10.1/', /link-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[febf::1]/', /link-local/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://224.0.0.1/', /multicast/],
    ['http://[ff02::1]/', /multicast/],
    ['ftp://example.com/', /http and https/],
    ['file:///etc/passwd', /http and https/],
    ['javascript:alert(1)', /http and https/],
    ['not a url', /not a valid URL/],
  ])('refuses %s even with loopback allowed', (url, why) => {
    const check = checkUrl(url, loopbackOk)
    expect(check.ok).toBe(false)
    if (!check.ok) expect(check.error).toMatch(why)
  })

  it.each([
    'https://discord.com/api/webhooks/1/abc',
    'http://10.0.0.5:8080/hook',
    'http://192.168.1.10/hook',
    'http://172.16.0.1/hook',
    'http://[fd12:3456::1]/hook',
    'http://100.64.0.1/hook',
    'http://[2001:db8::1]/hook',
  ])('allows %s (public and private ranges)', (url) => {
    expect(checkUrl(url, strict).ok).toBe(true)
  })
})

describe('refusedAddress', () => {
  it('checks the IPv4 address an IPv6 form carries', () => {
    expect(refusedAddress('::ffff:10.0.0.1', strict)).toBeNull()
    expect(refusedAddress('::ffff:127.0.0.1', strict)).toMatch(/loopback/)
    expect(refusedAddress('::127.0.0.1', strict)).toMatch(/loopback/)
    expect(refusedAddress('fe80::1%eth0', strict)).toMatch(/link-local/)
  })
})

describe('checkUrlResolved', () => {
  const fake = (addresses: string[]) => async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

  it('refuses a name when any of its addresses is refused', async () => {
    const check = await checkUrlResolved(
      'http://hooks.example.com/x',
      strict,
      fake(['10.0.0.1', '169.254.169.254']),
    )
    expect(check).toMatchObject({ ok: false })
    if (!check.ok) expect(check.error).toMatch(/hooks\.example\.com resolves to a cloud metadata/)
  })

  it('allows a name whose addresses are all allowed, and one that does not resolve', async () => {
    expect((await checkUrlResolved('http://h.example/', strict, fake(['10.1.1.1']))).ok).toBe(true)
    const failing = async () => {
      throw new Error('ENOTFOUND')
    }
    expect((await checkUrlResolved('http://h.example/', strict, failing)).ok).toBe(true)
  })

  it('resolves localhost through the system and refuses it when loopback is off', async () => {
    expect((await checkUrlResolved('http://localhost:1/', strict)).ok).toBe(false)
  })
})
