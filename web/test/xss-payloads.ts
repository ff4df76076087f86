/**
 * Fifty known cross-site scripting payloads, shared by the end-to-end run in Chromium
 * (`e2e/xss.spec.ts`) and the renderers' property tests (`*.property.test.tsx`). Each calls
 * `__x(n)` (its number, from 1) if it ever runs: `X` in a template is that call, `E` the call as
 * HTML character references, `B` the call in base64 and `N` the number.
 */
const TEMPLATES = [
  '<script>X</script>',
  '<img src=x onerror=X>',
  '<svg onload=X>',
  '<svg><script>X</script></svg>',
  '"><script>X</script>',
  "'><img src=x onerror=X>",
  '<body onload=X>',
  '<iframe src="javascript:X"></iframe>',
  '<a href="javascript:X">click</a>',
  '<details open ontoggle=X>',
  '<input autofocus onfocus=X>',
  '<select autofocus onfocus=X>',
  '<textarea autofocus onfocus=X>',
  '<video><source onerror=X></video>',
  '<audio src=x onerror=X>',
  '<marquee onstart=X>',
  '<object data="javascript:X">',
  '<embed src="javascript:X">',
  '<math><mtext><mglyph><svg><mtext><style><img src=x onerror=X></style></mtext></svg>',
  '<isindex type=image src=1 onerror=X>',
  '<form><button formaction=javascript:X>go</button></form>',
  '<img src="x" onerror="X">',
  '<img src=x onerror="E">',
  '<scr<script>ipt>X</scr</script>ipt>',
  '<ScRiPt>X</sCrIpT>',
  '<script src=data:text/javascript,X></script>',
  '<link rel=import href="data:text/html,<script>X</script>">',
  '<meta http-equiv="refresh" content="0;url=javascript:X">',
  '<div style="background:url(javascript:X)">',
  "<style>@import 'javascript:X';</style>",
  '<base href="javascript:X//">',
  'javascript:X',
  'data:text/html,<script>X</script>',
  "{{constructor.constructor('X')()}}",
  '[click](javascript:X)',
  '<img src=x:x onerror=X//',
  '<svg><animate onbegin=X attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:X"><text x=20 y=20>go</text></a></svg>',
  '<iframe srcdoc="<script>parent.X</script>">',
  "<img src=x onerror=eval(atob('B'))>",
  '<noscript><p title="</noscript><img src=x onerror=X>">',
  '<a href="&#106;avascript:X">go</a>',
  '<a href="jav&#x09;ascript:X">go</a>',
  '<img src=x onerror="window[\'__x\'](N)">',
  '<svg/onload=X>',
  '<b onmouseover=X>hover</b>',
  '<div onpointerenter=X>here</div>',
  '<x contenteditable onfocus=X autofocus>',
  '</textarea><script>X</script>',
  '--><script>X</script><!--',
];

export const XSS_PAYLOADS: readonly string[] = TEMPLATES.map((template, index) => {
  const call = `__x(${index + 1})`;
  return template
    .replaceAll('X', call)
    .replaceAll('E', [...call].map((char) => `&#${char.charCodeAt(0)};`).join(''))
    .replaceAll('B', btoa(call))
    .replaceAll('N', String(index + 1));
});
