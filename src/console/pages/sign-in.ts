import { html, type Html } from '../html';
import { consoleUrl, page, type Notice, type PageContext } from '../layout';

/** One field: the API key. It is sent once; the session that answers it is the console's own. */
export function signInPage(ctx: PageContext, options: { back: string; notices: Notice[] }): Html {
  const { t } = ctx;
  return page(
    ctx,
    t('SIGN_IN_TITLE'),
    html`<form method="post" action="${consoleUrl('/sign-in')}" class="card narrow">
  <input type="hidden" name="back" value="${options.back}">
  <label for="api_key">${t('API_KEY')}</label>
  <input id="api_key" name="api_key" type="password" autocomplete="current-password" required maxlength="200" autofocus spellcheck="false">
  <p class="hint">${t('SIGN_IN_HINT')}</p>
  <button type="submit">${t('SIGN_IN')}</button>
</form>`,
    { notices: options.notices },
  );
}
