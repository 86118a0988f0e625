/**
 * Our `incoterms_type` → the Incoterms rule it stands for. 2 = DDU is the API's documented default; the
 * rest is ours (docs/api.md): carriers book with it, customs documents print it.
 */
export const INCOTERM_OF_TYPE: Readonly<Record<number, string>> = { 0: 'EXW', 1: 'DAP', 2: 'DDU', 3: 'DDP', 4: 'DPU', 5: 'FCA', 6: 'CPT', 7: 'CIP' };

export const DEFAULT_INCOTERMS_TYPE = 2;
