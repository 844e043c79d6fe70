import { TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import { useUrlParam } from '../lib/url-param'

/** A list page's search: the text stays in the URL (`q`); the query follows it once typing pauses. */
export function useUrlSearch(): { search: string; debounced: string; setSearch: (value: string) => void } {
  const [search, setSearch] = useUrlParam('q')
  const [debounced] = useDebouncedValue(search, 200)
  return { search, debounced, setSearch }
}

/** The list pages' search box, so each looks and is named the same way. */
export function SearchInput({ value, onChange, label, w }: { value: string; onChange: (value: string) => void; label: string; w: number }) {
  return (
    <TextInput
      placeholder="Search by name or id"
      leftSection={<IconSearch size={14} />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={w}
      aria-label={label}
    />
  )
}
