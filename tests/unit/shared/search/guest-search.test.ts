import { describe, expect, it } from 'vitest'
import type { Guest } from '../../../../src/shared/model/state.ts'
import {
  compileGuestSearch,
  compileTabSearch,
  matchAllGuests,
} from '../../../../src/shared/search/guest-search.ts'
import { makeGuest } from '../views/guest-fixtures.ts'

const guests: Guest[] = [
  makeGuest(101, {
    name: 'web-prod',
    node: 'pve1',
    status: 'running',
    cpu: 0.85,
    cpus: 4,
    uptime: 7200,
    memory: { usage: 70, used: 70, total: 100 },
    disk: { usage: 50, used: 50, total: 100 },
    diskRead: 5000,
    networkIn: 200,
    tags: ['Prod', 'web'],
    ipAddresses: ['127.0.0.11'],
    template: false,
  }),
  makeGuest(102, {
    name: 'DB-Main',
    node: 'pve2',
    type: 'lxc',
    status: 'running',
    cpu: 0.2,
    cpus: 2,
    uptime: 100,
    memory: { usage: 90, used: 90, total: 100 },
    disk: { usage: 95, used: 95, total: 100 },
    diskRead: 500,
    networkIn: 9000,
    tags: ['db'],
  }),
  makeGuest(203, {
    name: 'backup',
    node: 'pve2',
    status: 'stopped',
    cpu: 0,
    cpus: 1,
    uptime: 5000,
    memory: { usage: 0, used: 0, total: 100 },
    disk: { usage: -1, used: 0, total: 0 },
    diskRead: 0,
    networkIn: 0,
    tags: undefined,
  }),
]

function search(text: string): number[] {
  const test = compileGuestSearch(text)
  return guests.filter((guest) => test(guest)).map((guest) => guest.vmid)
}

function tabSearch(text: string): number[] {
  const test = compileTabSearch(text)
  return guests.filter((guest) => test(guest)).map((guest) => guest.vmid)
}

describe('main search reading: free text', () => {
  it('matches every guest for an empty or blank search', () => {
    expect(search('')).toEqual([101, 102, 203])
    expect(search('   ')).toEqual([101, 102, 203])
    expect(compileGuestSearch(' \t ')).toBe(matchAllGuests)
  })

  it('matches name, vmid, node, status and tags case-insensitively', () => {
    expect(search('WEB-PROD')).toEqual([101])
    expect(search('db-main')).toEqual([102])
    expect(search('203')).toEqual([203])
    expect(search('pve2')).toEqual([102, 203])
    expect(search('stopped')).toEqual([203])
    expect(search('prod')).toEqual([101])
    expect(search('nothing-like-this')).toEqual([])
  })

  it('does not match free text against other fields', () => {
    expect(search('lxc')).toEqual([])
    expect(search('127.0.0.11')).toEqual([])
  })

  it('searches tags that arrive as a comma-separated string', () => {
    const guest = makeGuest(300, { tags: 'Alpha;beta' as unknown as string[] })
    expect(compileGuestSearch('alpha')(guest)).toBe(true)
    expect(compileGuestSearch('tags:gamma,BETA')(guest)).toBe(true)
    expect(compileGuestSearch('tags:gamma')(guest)).toBe(false)
  })

  it('treats a quoted phrase as one free-text term, spaces included', () => {
    const spaced = makeGuest(400, { name: 'web prod box' })
    expect(compileGuestSearch('"web prod"')(spaced)).toBe(true)
    expect(compileGuestSearch('"prod web"')(spaced)).toBe(false)
    expect(compileGuestSearch('prod web')(spaced)).toBe(true)
  })

  it('runs an unclosed quote to the end of the text', () => {
    const spaced = makeGuest(400, { name: 'web prod box' })
    expect(compileGuestSearch('"prod box')(spaced)).toBe(true)
  })

  it('turns a quoted filter into free text', () => {
    const odd = makeGuest(401, { name: 'cpu>80 alarm' })
    expect(compileGuestSearch('"cpu>80"')(odd)).toBe(true)
    expect(compileGuestSearch('"cpu>80"')(guests[0]!)).toBe(false)
  })
})

describe('main search reading: metric filters', () => {
  it('reads cpu as a percent of the fraction', () => {
    expect(search('cpu>80')).toEqual([101])
    expect(search('cpu<20')).toEqual([203])
    expect(search('cpu>=20')).toEqual([101, 102])
    expect(search('cpu<=20')).toEqual([102, 203])
  })

  it('reads memory and disk as usage percent', () => {
    expect(search('memory>=90')).toEqual([102])
    expect(search('memory<75')).toEqual([101, 203])
    expect(search('disk>90')).toEqual([102])
  })

  it('does not let an unavailable disk match a filter on a non-negative value', () => {
    expect(search('disk<60')).toEqual([101])
    expect(search('disk=-1')).toEqual([203])
    expect(search('disk<0')).toEqual([203])
    expect(search('disk<=0')).toEqual([])
    expect(search('disk>-2')).toEqual([101, 102])
  })

  it('counts uptime as 0 unless the guest is running', () => {
    expect(search('uptime>1000')).toEqual([101])
    expect(search('uptime=0')).toEqual([203])
  })

  it('compares any other numeric field directly, whatever the case of its name', () => {
    expect(search('diskRead>1000')).toEqual([101])
    expect(search('diskread>=500')).toEqual([101, 102])
    expect(search('NETWORKIN<100')).toEqual([203])
    expect(search('vmid>=200')).toEqual([203])
    expect(search('cpus=4')).toEqual([101])
  })

  it('matches = and == within 0.01 inclusive', () => {
    const guest = makeGuest(500, { cpu: 0.8001 })
    expect(compileGuestSearch('cpu=80')(guest)).toBe(true)
    expect(compileGuestSearch('cpu==80.01')(guest)).toBe(true)
    expect(compileGuestSearch('cpu=80.02')(guest)).toBe(true)
    expect(compileGuestSearch('cpu=80.03')(guest)).toBe(false)
    expect(compileGuestSearch('cpu=79.99')(guest)).toBe(false)
  })

  it('accepts spaces on either side of the operator', () => {
    for (const text of ['cpu>80', 'cpu > 80', 'cpu >80', 'cpu> 80', 'CPU  >  80']) {
      expect(search(text)).toEqual([101])
    }
    expect(search('cpu >= 20')).toEqual([101, 102])
  })

  it('reads signed, fractional, exponent and percent numbers', () => {
    expect(search('cpu>+84.5')).toEqual([101])
    expect(search('cpu>.5')).toEqual([101, 102])
    expect(search('diskRead>=1e3')).toEqual([101])
    expect(search('cpu>80%')).toEqual([101])
    expect(search('memory>-2')).toEqual([101, 102, 203])
    expect(search('cpu<-0.5')).toEqual([])
  })

  it('treats a value that is not a number as free text', () => {
    expect(search('diskRead>1k')).toEqual([])
    expect(search('cpu>abc')).toEqual([])
    const odd = makeGuest(600, { name: 'cpu>>80' })
    expect(compileGuestSearch('cpu>>80')(odd)).toBe(true)
  })

  it('ignores an operator that has no value yet', () => {
    expect(search('cpu>')).toEqual([101, 102, 203])
    expect(search('web cpu >')).toEqual([101])
  })

  it('matches nothing for a metric filter on an unknown or non-numeric field', () => {
    expect(search('foo>1')).toEqual([])
    expect(search('name>1')).toEqual([])
  })
})

describe('main search reading: field text', () => {
  it('matches a substring of name, node, vmid, status and type', () => {
    expect(search('name:WEB')).toEqual([101])
    expect(search('node:pve')).toEqual([101, 102, 203])
    expect(search('vmid:10')).toEqual([101, 102])
    expect(search('status:stop')).toEqual([203])
    expect(search('type:lxc')).toEqual([102])
  })

  it('matches numbers, booleans and arrays of any field', () => {
    expect(search('cpus:4')).toEqual([101])
    expect(search('template:false')).toEqual([101])
    expect(search('ipAddresses:127.0.0')).toEqual([101])
  })

  it('accepts spaces after the colon and a quoted value', () => {
    expect(search('name: web')).toEqual([101])
    expect(search('name : db')).toEqual([102])
    const spaced = makeGuest(700, { name: 'web prod box' })
    expect(compileGuestSearch('name:"prod box"')(spaced)).toBe(true)
    expect(compileGuestSearch('name: "prod box"')(spaced)).toBe(true)
  })

  it('matches a guest when any tag contains any comma-separated value', () => {
    expect(search('tags:prod')).toEqual([101])
    expect(search('tags:nope,DB')).toEqual([102])
    expect(search('tags:pro,d')).toEqual([101, 102])
  })

  it('ignores a field with an empty value', () => {
    expect(search('tags:')).toEqual([101, 102, 203])
    expect(search('tags:,')).toEqual([101, 102, 203])
    expect(search('web name:')).toEqual([101])
  })

  it('matches nothing on a field the guest lacks', () => {
    expect(search('foo:bar')).toEqual([])
    expect(search('osName:linux')).toEqual([])
  })

  it('treats text whose prefix is not a field name as free text', () => {
    const odd = makeGuest(800, { name: 'host 127.0.0.1:8006' })
    expect(compileGuestSearch('127.0.0.1:8006')(odd)).toBe(true)
  })
})

describe('main search reading: AND and OR', () => {
  it('joins adjacent terms with AND', () => {
    expect(search('pve2 running')).toEqual([102])
    expect(search('pve2 cpu<10')).toEqual([203])
  })

  it('reads AND, OR, && and || in any case as connectors', () => {
    expect(search('web OR db')).toEqual([101, 102])
    expect(search('web or db')).toEqual([101, 102])
    expect(search('web || db')).toEqual([101, 102])
    expect(search('pve2 AND running')).toEqual([102])
    expect(search('pve2 and running')).toEqual([102])
    expect(search('pve2 && running')).toEqual([102])
  })

  it('applies connectors left to right with no precedence', () => {
    // (web OR db) AND stopped: nothing; with precedence it would be web OR (db AND stopped).
    expect(search('web OR db AND stopped')).toEqual([])
    expect(search('web OR db AND pve2')).toEqual([102])
    // (stopped AND pve2) OR web
    expect(search('stopped AND pve2 OR web')).toEqual([101, 203])
    expect(search('cpu>80 OR memory>80 AND disk>90')).toEqual([102])
  })

  it('drops a leading or trailing connector', () => {
    expect(search('cpu>80 AND')).toEqual([101])
    expect(search('OR web')).toEqual([101])
  })

  it('keeps the last of two connectors in a row', () => {
    expect(search('web AND OR db')).toEqual([101, 102])
    expect(search('web OR AND db')).toEqual([])
  })

  it('searches a text made only of connectors as free text', () => {
    const oracle = makeGuest(900, { name: 'oracle' })
    expect(compileGuestSearch('or')(oracle)).toBe(true)
    expect(compileGuestSearch('or')(guests[0]!)).toBe(false)
  })

  it('treats a connector glued to other text as part of a free-text term', () => {
    expect(search('webANDdb')).toEqual([])
  })
})

describe('search never throws', () => {
  const malformed = [
    '"',
    '""',
    ':',
    '>',
    '>=80',
    'cpu>=>80',
    'cpu<>',
    '==',
    'AND OR && ||',
    'tags:,,,',
    'a:b:c',
    '(web)',
    '\\',
    'cpu>1e999999',
    'constructor:x',
    '__proto__>1',
    'toString:x',
  ]

  it('compiles and runs every malformed text on every guest', () => {
    const odd = { vmid: 1 } as unknown as Guest
    for (const text of malformed) {
      for (const compile of [compileGuestSearch, compileTabSearch]) {
        const test = compile(text)
        for (const guest of [...guests, odd]) expect(() => test(guest)).not.toThrow()
      }
    }
  })
})

describe('tab-level search reading', () => {
  it('matches every guest for an empty or blank search', () => {
    expect(tabSearch('')).toEqual([101, 102, 203])
    expect(tabSearch(' , ,')).toEqual([101, 102, 203])
  })

  it('ANDs comma-separated plain terms on name, vmid, node or status', () => {
    expect(tabSearch('pve2')).toEqual([102, 203])
    expect(tabSearch('pve2, RUNNING')).toEqual([102])
    expect(tabSearch('10')).toEqual([101, 102])
  })

  it('does not match plain terms against tags', () => {
    const tagged = makeGuest(960, { name: 'plain', tags: ['zeta'] })
    expect(compileTabSearch('zeta')(tagged)).toBe(false)
    expect(compileGuestSearch('zeta')(tagged)).toBe(true)
  })

  it('reads a term with >, < or : as a field filter', () => {
    expect(tabSearch('cpu > 80')).toEqual([101])
    expect(tabSearch('cpu>=20, node:pve2')).toEqual([102])
    expect(tabSearch('tags:db')).toEqual([102])
    expect(tabSearch('uptime<200')).toEqual([102, 203])
  })

  it('splits tags values on the comma like any other term', () => {
    expect(tabSearch('tags:prod,db')).toEqual([])
    expect(tabSearch('tags:prod,web')).toEqual([101])
  })

  it('treats a term with only = as a plain term', () => {
    expect(tabSearch('cpus=4')).toEqual([])
  })

  it('gives AND, OR and spaces no meaning', () => {
    expect(tabSearch('web OR db')).toEqual([])
    expect(tabSearch('web-prod')).toEqual([101])
  })

  it('falls back to a plain term when a field filter does not parse', () => {
    const odd = makeGuest(950, { name: 'a>b' })
    expect(compileTabSearch('a>b')(odd)).toBe(true)
  })
})
