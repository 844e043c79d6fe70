import { useSearchParams } from 'react-router'

/**
 * One query parameter of the page's URL as state, so a reload or a shared link keeps it. Setting
 * it replaces the history entry (typing does not fill the back button); '' or null removes it.
 */
export function useUrlParam(key: string): [string, (value: string | null) => void] {
  const [params, setParams] = useSearchParams()
  const set = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (value) next.set(key, value)
        else next.delete(key)
        return next
      },
      { replace: true },
    )
  return [params.get(key) ?? '', set]
}
