import { verificationCodeValidityMs } from '../../../contract/auth'

/**
 * The texts of the SMS and e-mails the account features send, in the console's three languages
 * (decisions.md "Identity and language"). The language is the requester's `language` cookie,
 * the one the console sets; without it, ko, like the console.
 */

/** Languages a message can be written in. */
export type MessageLanguage = 'ko' | 'zh' | 'en'

const messageLanguages: readonly MessageLanguage[] = ['ko', 'zh', 'en']

/** The language of the `language` cookie in a Cookie header; ko when absent or unknown. */
export function messageLanguageOf(cookieHeader: string | undefined): MessageLanguage {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.split('=')
    if (name?.trim() !== 'language') continue
    let text = value.join('=').trim()
    try {
      text = decodeURIComponent(text)
    } catch {
      // A malformed escape is just an unknown language.
    }
    if ((messageLanguages as readonly string[]).includes(text)) return text as MessageLanguage
  }
  return 'ko'
}

const minutes = verificationCodeValidityMs / 60_000

/** What a message is about. */
export type AccountHolder = 'phone' | 'email'

interface Texts {
  registerCode(code: string): string
  resetCode(code: string): string
  alreadyRegistered(holder: AccountHolder): string
  /** The code that confirms a new phone or e-mail address of an account. */
  changeCode(code: string, holder: AccountHolder): string
  changeSubject: string
  mailSubject: string
  /** The code that lets the owner sign in while others are guessing the password. */
  signInCode(code: string): string
  signInSubject: string
  /** To the admins: someone is guessing the password of `accountName`. */
  guessingAlert(accountName: string): string
}

/** Every message text per language. The product name comes first, so the phone shows who writes. */
export const messageTexts: Record<MessageLanguage, Texts> = {
  ko: {
    registerCode: (code) =>
      `[Twinscape] 가입 인증번호는 ${code}입니다. ${minutes}분 동안 유효합니다. 다른 사람에게 알려 주지 마세요.`,
    resetCode: (code) =>
      `[Twinscape] 비밀번호 재설정 인증번호는 ${code}입니다. ${minutes}분 동안 유효합니다. 요청하지 않으셨다면 이 메시지를 무시하세요.`,
    alreadyRegistered: (holder) =>
      `[Twinscape] 이 ${holder === 'phone' ? '휴대폰 번호' : '이메일 주소'}로 가입 요청이 있었지만 이미 계정이 있습니다. 로그인하거나 "비밀번호 찾기"를 이용하세요. 요청하지 않으셨다면 이 메시지를 무시하세요.`,
    changeCode: (code, holder) =>
      `[Twinscape] ${holder === 'phone' ? '휴대폰 번호' : '이메일 주소'} 변경 인증번호는 ${code}입니다. ${minutes}분 동안 유효합니다. 요청하지 않으셨다면 이 메시지를 무시하세요.`,
    changeSubject: 'Twinscape 이메일 주소 변경',
    mailSubject: 'Twinscape 가입',
    signInCode: (code) =>
      `[Twinscape] 로그인 인증번호는 ${code}입니다. ${minutes}분 동안 유효합니다. 다른 곳에서 비밀번호를 여러 번 틀려 계정 로그인이 늦춰져 있습니다. 요청하지 않으셨다면 비밀번호를 바꾸세요.`,
    signInSubject: 'Twinscape 로그인',
    guessingAlert: (accountName) =>
      `[Twinscape] 계정 "${accountName}"의 비밀번호가 여러 곳에서 반복해서 틀렸습니다. 누군가 비밀번호를 추측하고 있을 수 있습니다. 로그인은 늦춰지지만 잠기지는 않습니다.`,
  },
  zh: {
    registerCode: (code) =>
      `【Twinscape】您的注册验证码为 ${code}，${minutes} 分钟内有效。请勿告诉他人。`,
    resetCode: (code) =>
      `【Twinscape】您的重置密码验证码为 ${code}，${minutes} 分钟内有效。如非本人操作，请忽略本消息。`,
    alreadyRegistered: (holder) =>
      `【Twinscape】有人使用此${holder === 'phone' ? '手机号' : '邮箱'}申请注册，但它已有账号。请直接登录或使用"忘记密码"。如非本人操作，请忽略本消息。`,
    changeCode: (code, holder) =>
      `【Twinscape】您更换${holder === 'phone' ? '手机号' : '邮箱'}的验证码为 ${code}，${minutes} 分钟内有效。如非本人操作，请忽略本消息。`,
    changeSubject: 'Twinscape 更换邮箱',
    mailSubject: 'Twinscape 注册',
    signInCode: (code) =>
      `【Twinscape】您的登录验证码为 ${code}，${minutes} 分钟内有效。因其他地方多次输错密码，该账号登录已被放慢。如非本人操作，请修改密码。`,
    signInSubject: 'Twinscape 登录',
    guessingAlert: (accountName) =>
      `【Twinscape】账号“${accountName}”的密码在多处被反复输错，可能有人在猜测密码。该账号登录已被放慢，但未被锁定。`,
  },
  en: {
    registerCode: (code) =>
      `Twinscape: your sign-up code is ${code}. It is valid for ${minutes} minutes. Do not share it with anyone.`,
    resetCode: (code) =>
      `Twinscape: your password reset code is ${code}. It is valid for ${minutes} minutes. If you did not ask for it, ignore this message.`,
    alreadyRegistered: (holder) =>
      `Twinscape: someone asked to sign up with this ${holder === 'phone' ? 'phone number' : 'e-mail address'}, which already has an account. To get back in, use "Forgot password". If it was not you, ignore this message.`,
    changeCode: (code, holder) =>
      `Twinscape: your code to change your account's ${holder === 'phone' ? 'phone number' : 'e-mail address'} to this one is ${code}. It is valid for ${minutes} minutes. If you did not ask for it, ignore this message.`,
    changeSubject: 'Twinscape e-mail address change',
    mailSubject: 'Twinscape sign-up',
    signInCode: (code) =>
      `Twinscape: your sign-in code is ${code}. It is valid for ${minutes} minutes. Sign-ins to your account are slowed because of many wrong passwords elsewhere. If you did not ask for it, change your password.`,
    signInSubject: 'Twinscape sign-in',
    guessingAlert: (accountName) =>
      `Twinscape: wrong passwords for the account "${accountName}" keep arriving from several places; someone may be guessing it. Its sign-ins are slowed, not locked.`,
  },
}
