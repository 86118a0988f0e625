// The console's only script besides htmx: "select all" checkboxes. Pages work without it.
document.addEventListener('change', (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.selectAll) return;
  const form = box.form || document;
  for (const other of form.querySelectorAll(`input[type="checkbox"][name="${box.dataset.selectAll}"]`)) other.checked = box.checked;
});
