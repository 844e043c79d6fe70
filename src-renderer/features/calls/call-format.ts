const ms = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** A latency to the millisecond, as the lines report it: "2,743 ms". */
export const formatLatency = (value: number) => `${ms.format(value)} ms`

/** Time since the timeline's start: "+12.345 s". */
export const formatOffset = (value: number) => `+${(value / 1000).toFixed(3)} s`

/** A time of day in UTC to the millisecond: "13:11:51.037". */
export const formatClock = (iso: string) => iso.slice(11, 23)
