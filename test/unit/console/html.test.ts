import { describe, expect, it } from '@jest/globals';
import { attrs, html, raw } from '../../../src/console/html';

describe('html``', () => {
  it("escapes every interpolated text, so a merchant's data cannot become markup", () => {
    const name = `<script>alert("x")</script> & 'Öz'`;
    expect(html`<td>${name}</td>`.value).toBe('<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Öz&#39;</td>');
    expect(html`<input value="${'" onfocus="x'}">`.value).toBe('<input value="&quot; onfocus=&quot;x">');
  });

  it('keeps Html as it is, joins arrays, and renders nothing for null, undefined and false', () => {
    const cells = ['a', '<b>'].map((v) => html`<td>${v}</td>`);
    expect(html`<tr>${cells}</tr>`.value).toBe('<tr><td>a</td><td>&lt;b&gt;</td></tr>');
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
    expect(html`${raw('<br>')}`.value).toBe('<br>');
  });

  it('writes attributes: true bare, false and null left out, values escaped', () => {
    expect(attrs({ selected: true, disabled: false, title: null, value: 'a"b' }).value).toBe(' selected value="a&quot;b"');
  });
});
