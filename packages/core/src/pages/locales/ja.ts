/**
 * 日本語（です・ます調）。
 *
 * @module
 */
import type { CoreMessages } from "../messages.js"

export const ja: CoreMessages = {
  "signin.heading": "ログイン",
  "signin.with": "{provider}でログイン",
  "signin.or": "または",
  "signin.email.label": "メールアドレス",
  "signin.email.placeholder": "you@example.com",
  "signin.none": "このサイトにはログイン方法が設定されていません。",
  "signin.error.CredentialsSignin": "入力された情報ではログインできませんでした。内容を確認して、もう一度お試しください。",
  "signin.error.OAuthAccountNotLinked":
    "このメールアドレスのアカウントはすでに存在します。ご本人であることを確認するため、最初にログインしたときと同じ方法でログインしてください。",
  "signin.error.OAuthCallbackError": "ログインサービスで問題が発生しました。もう一度お試しいただくか、別の方法でログインしてください。",
  "signin.error.OAuthSignInError": "このサービスでのログインを開始できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signin.error.InvalidCheck":
    "このログインを確認できませんでした。時間がかかりすぎたか、別のブラウザで始められた可能性があります。もう一度お試しください。",
  "signin.error.AccessDenied": "このアカウントにはログインする権限がありません。",
  "signin.error.Verification":
    "このログインリンクは無効です。有効期限が切れているか、すでに使用されています。新しいリンクをリクエストしてください。",
  "signin.error.MissingCSRF": "フォームの有効期限が切れたか、ブラウザが Cookie をブロックしました。もう一度お試しください。",
  "signin.error.SessionRequired": "このページを表示するにはログインしてください。",
  "signin.error.EmailSignin": "ログイン用のメールを送信できませんでした。メールアドレスを確認して、もう一度お試しください。",
  "signin.error.AccountNotLinked": "このログイン方法は別のアカウントに登録されています。登録時に使った方法でログインしてください。",
  "signin.password.label": "パスワード",
  "signin.error.Default": "ログイン中に問題が発生しました。もう一度お試しください。",
  "acting.banner": "{actor} が {user} としてアプリを表示しています（{time} まで）。",
  "acting.stop": "終了して自分のアカウントに戻る",
  "signout.heading": "ログアウト",
  "signout.confirm": "ログアウトしますか？",
  "signout.button": "ログアウト",
  "signout.cancel": "ログインしたままにする",
  "verify.heading": "メールをご確認ください",
  "error.back": "ログインページへ",
  "error.heading.Configuration": "サーバーエラー",
  "error.heading.AccessDenied": "アクセスが拒否されました",
  "error.heading.Verification": "ログインできません",
  "error.heading.Default": "エラー",
  "error.Configuration":
    "サーバーの設定に問題があるため、現在ログインできません。サイトの管理者の方は、サーバーのログで原因をご確認ください。",
  "error.AccessDenied": "このアカウントでは、このサイトにログインできません。",
  "error.Verification":
    "このログインリンクは無効です。有効期限が切れているか、すでに使用されています。新しいリンクをリクエストしてください。",
  "error.Default": "問題が発生しました。もう一度お試しください。",
  "error.heading.Unavailable": "しばらくしてからもう一度お試しください",
  "error.Unavailable": "現在、一時的にご利用いただけません。データに接続できない状態です。データは失われておらず、ログイン中だった場合はそのままログインしています。数秒後にもう一度お試しください。",
  "error.retry": "再試行",
  "confirm.heading": "ログインを完了する",
  "confirm.body": "{email} として {host} にログインしますか？",
  "confirm.button": "ログイン",
  "confirm.why": "メール内のリンクを開くセキュリティスキャナーに、あなたより先にリンクを使われないよう、このクリックをお願いしています。",
  "password.error.wrong-password": "パスワードが正しくありません。",
}
