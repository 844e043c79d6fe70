import { describe, expect, it } from 'vitest'
import { guardedLookup, isPrivateAddress } from './target-guard'

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd12:3456::1', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1', 'not-an-address',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true))

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  )
})

describe('guardedLookup', () => {
  const lookup = (allow: boolean, host: string, all = true) =>
    new Promise<{ error: NodeJS.ErrnoException | null; addresses: unknown }>((resolve) =>
      guardedLookup(allow)(host, { all }, (error, addresses) => resolve({ error, addresses })),
    )

  it('refuses a name that resolves to loopback, saying which address and how to allow it', async () => {
    const { error } = await lookup(false, 'localhost')
    expect(error?.code).toBe('EBLOCKED')
    expect(error?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is a loopback, private or link-local address; allow private targets/)
  })

  it('passes it on when private targets are allowed, in both answer forms', async () => {
    const all = await lookup(true, 'localhost')
    expect(all.error).toBeNull()
    expect((all.addresses as Array<{ address: string }>).map((a) => a.address)).toContain('127.0.0.1')
    const one = await lookup(true, 'localhost', false)
    expect(typeof one.addresses).toBe('string')
  })
})
