import { describeKilledPushTo } from '../helpers/killed-push-scenario'

/** `kill -9` of `callscope push` to a real `callscope serve --db postgres://…` (issue 36 pt 6), the scenario of test/integration/killed-push.test.ts. */
describeKilledPushTo('postgres')
