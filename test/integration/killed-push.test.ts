import { describeKilledPushTo } from '../helpers/killed-push-scenario'

/** `kill -9` of `callscope push` to a real `callscope serve` on SQLite (issue 36 pt 6; the scenario is in the helper). */
describeKilledPushTo('sqlite')
