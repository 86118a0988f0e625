// The console's only script besides htmx: "select all" checkboxes. Pages work without it.
document.addEventListener('change', (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.selectAll) return;
  const form = box.form || document;
  for (const other of form.querySelectorAll(`input[type="checkbox"][name="${box.dataset.selectAll}"]`)) other.checked = box.checked;
});

// Copy buttons: <button data-copy="ID" data-copied="…"> copies the value of element ID and says so in ID-copied.
document.addEventListener('click', (event) => {
  const button = typeof event.target.closest === 'function' ? event.target.closest('button[data-copy]') : null;
  const field = button && document.getElementById(button.dataset.copy);
  if (!field) return;
  const said = () => {
    const status = document.getElementById(`${button.dataset.copy}-copied`);
    if (status) status.textContent = button.dataset.copied || '';
  };
  const byCommand = () => {
    field.select();
    if (document.execCommand('copy')) said();
  };
  // The Clipboard API exists only in secure contexts (HTTPS, localhost); elsewhere the old command still works.
  const { isSecureContext, navigator } = document.defaultView;
  if (isSecureContext && navigator.clipboard) navigator.clipboard.writeText(field.value).then(said, byCommand);
  else byCommand();
});

// Address search results in the draft form: "use this address" fills its party's city, state, postal code and
// country (without script the results are there to read).
{
  const FILLED = [
    ['city', 'city'],
    ['state', 'state'],
    ['postalCode', 'postal-code'],
    ['country', 'country'],
    ['stateCode', 'state-code'],
  ];
  document.addEventListener('click', (event) => {
    const button = event.target && typeof event.target.closest === 'function' ? event.target.closest('[data-fill]') : null;
    if (!button) return;
    event.preventDefault();
    const party = button.dataset.fill;
    for (const [key, suffix] of FILLED) {
      const input = document.getElementById(`${party}-${suffix}`);
      if (input && button.dataset[key] !== undefined) input.value = button.dataset[key];
    }
    const results = button.closest('.lookup-results');
    if (results) results.replaceChildren();
    const next = document.getElementById(`${party}-address`);
    if (next) next.focus();
  });
  // Enter in an address search box searches (htmx does, as the user types) instead of submitting the whole form.
  document.addEventListener('keydown', (event) => {
    const box = event.target;
    if (event.key === 'Enter' && box instanceof HTMLInputElement && box.dataset.lookup !== undefined) event.preventDefault();
  });
}
