/**
 * The built-in account page as a feature: `GET account` and its changes, `POST account/<action>`,
 * and the page an address-change link opens. On whenever there is an adapter, unless the app says
 * `accountPage: false`; each row answers `404` while it is off.
 *
 * @module
 */
import type { Feature } from "../modules/feature.js"
import { route } from "../modules/route.js"
import {
  askEmailChange,
  deleteAccount,
  removePasskey,
  renamePasskeyAction,
  revokeOne,
  revokeOthers,
  saveProfile,
  savePassword,
  showAccount,
  showEmailConfirm,
  submitEmailConfirm,
  unlink,
} from "./endpoints.js"
import { accountPageMessages } from "./messages.js"
import { resolveAccountPage, type ResolvedAccountPage } from "./options.js"

declare module "../modules/feature.js" {
  interface FeatureSettingsMap {
    accountPage: ResolvedAccountPage
  }
}

export const accountPageFeature: Feature<"accountPage"> = {
  id: "account-page",
  messages: accountPageMessages,
  settings: {
    key: "accountPage",
    resolve: ({ config, adapter }) => resolveAccountPage(config.accountPage, adapter !== undefined),
  },
  routes: {
    "GET account": route({ run: showAccount }),
    "POST account/profile": route({ csrf: true, run: saveProfile }),
    "POST account/email": route({ limit: "email", csrf: true, run: askEmailChange }),
    "GET account/email-confirm": route({ run: showEmailConfirm }),
    "POST account/email-confirm": route({ csrf: true, run: submitEmailConfirm }),
    "POST account/password": route({ limit: "sign-in", csrf: true, run: savePassword }),
    "POST account/passkey-rename": route({ csrf: true, run: renamePasskeyAction }),
    "POST account/passkey-remove": route({ csrf: true, run: removePasskey }),
    "POST account/unlink": route({ csrf: true, run: unlink }),
    "POST account/session-revoke": route({ csrf: true, run: revokeOne }),
    "POST account/sessions-revoke": route({ csrf: true, run: revokeOthers }),
    "POST account/delete": route({ csrf: true, run: deleteAccount }),
  },
}
