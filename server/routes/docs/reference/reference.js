/* global document, MutationObserver */
/*
 * Digi Library's changes to Swagger UI's markup for people using assistive technology (checked by
 * axe in e2e/api-docs.spec.ts). A file of this server's, like the rest of the page: the page's
 * Content-Security-Policy allows no inline script.
 */
const root = document.getElementById('swagger-ui');

// The reference is the page's main content.
root.setAttribute('role', 'main');

/** What Swagger UI renders, again after each render: named controls, scrollable boxes reachable. */
function label() {
  // A parameter's list of values is named by the parameter.
  for (const select of root.querySelectorAll('tr[data-param-name] select:not([aria-label])'))
    select.setAttribute('aria-label', select.closest('tr').dataset.paramName);
  // An example that scrolls can be scrolled from the keyboard.
  for (const code of root.querySelectorAll('.highlight-code > .microlight:not([tabindex])'))
    code.setAttribute('tabindex', '0');
}

new MutationObserver(label).observe(root, { childList: true, subtree: true });
label();
