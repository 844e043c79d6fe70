/** See thread-priority.mjs. */
export declare const READER_NICE: 10
export declare const BACKGROUND_NICE: 19
/** Lowers the calling worker thread's priority to `nice` (Linux; not the main thread); whether it did. */
export declare function lowerWorkerPriority(nice: number): boolean
