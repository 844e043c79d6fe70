import { describePushTo } from '../helpers/push-scenario'

/** `callscope push` to a real `callscope serve --db postgres://…` (issue 20 pt 4), the scenario of test/integration/push-cli.test.ts. */
describePushTo('postgres')
