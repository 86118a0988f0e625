/** The file formats a label comes in: PDF for any printer, ZPL for thermal label printers. */
export const LABEL_FORMATS = ['pdf', 'zpl'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
