import { describe, expect, it } from 'vitest'
import {
  SEARCH_HISTORY_MAX,
  addSearchHistory,
  removeSearchHistory,
} from '../../../../src/shared/prefs/search-history.ts'

describe('addSearchHistory', () => {
  it('puts the newest search first', () => {
    expect(addSearchHistory([], 'web')).toEqual(['web'])
    expect(addSearchHistory(['web'], 'cpu>80')).toEqual(['cpu>80', 'web'])
  })

  it('trims the entry', () => {
    expect(addSearchHistory(['web'], '  tags:prod \t')).toEqual(['tags:prod', 'web'])
  })

  it('ignores empty and blank entries and returns the same list', () => {
    const list = ['web']
    expect(addSearchHistory(list, '')).toBe(list)
    expect(addSearchHistory(list, '   ')).toBe(list)
  })

  it('moves a repeated search to the front instead of duplicating it', () => {
    expect(addSearchHistory(['a', 'b', 'c'], 'c')).toEqual(['c', 'a', 'b'])
  })

  it('de-duplicates case-insensitively and keeps the newest spelling', () => {
    expect(addSearchHistory(['a', 'Node:PVE1', 'b'], 'node:pve1')).toEqual(['node:pve1', 'a', 'b'])
    expect(addSearchHistory(['web'], ' WEB ')).toEqual(['WEB'])
  })

  it('returns the same list when the entry is already first as typed', () => {
    const list = ['web', 'db']
    expect(addSearchHistory(list, 'web')).toBe(list)
    expect(addSearchHistory(list, ' web ')).toBe(list)
  })

  it('keeps at most ten, dropping the oldest', () => {
    let list: readonly string[] = []
    for (let i = 1; i <= 12; i += 1) list = addSearchHistory(list, `term ${i}`)
    expect(SEARCH_HISTORY_MAX).toBe(10)
    expect(list).toHaveLength(10)
    expect(list[0]).toBe('term 12')
    expect(list[9]).toBe('term 3')
  })

  it('re-adding an entry of a full list keeps the length at ten', () => {
    const full = Array.from({ length: 10 }, (_, i) => `t${i}`)
    const next = addSearchHistory(full, 't9')
    expect(next).toHaveLength(10)
    expect(next[0]).toBe('t9')
    expect(next[9]).toBe('t8')
  })

  it('never mutates the input list', () => {
    const list = Object.freeze(['a', 'b'])
    expect(addSearchHistory(list, 'c')).toEqual(['c', 'a', 'b'])
    expect(list).toEqual(['a', 'b'])
  })
})

describe('removeSearchHistory', () => {
  it('removes the entry and keeps the order of the rest', () => {
    expect(removeSearchHistory(['a', 'b', 'c'], 'b')).toEqual(['a', 'c'])
  })

  it('matches case-insensitively after trimming', () => {
    expect(removeSearchHistory(['Tags:Prod', 'web'], ' tags:prod ')).toEqual(['web'])
  })

  it('returns the same list when the entry is not there', () => {
    const list = ['a']
    expect(removeSearchHistory(list, 'z')).toBe(list)
    expect(removeSearchHistory([], 'z')).toEqual([])
  })

  it('never mutates the input list', () => {
    const list = Object.freeze(['a', 'b'])
    expect(removeSearchHistory(list, 'a')).toEqual(['b'])
    expect(list).toEqual(['a', 'b'])
  })
})
