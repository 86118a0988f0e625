import { franceDataset } from './france';
import { turkeyDataset } from './turkey';
import type { AddressDataset } from './types';
import { canadaDataset, unitedStatesDataset } from './zipcodes';

export type { AddressDataset, AddressRecord } from './types';

/** Every country with address data, loaded in this order. */
export const DATASETS: readonly AddressDataset[] = [turkeyDataset, unitedStatesDataset, canadaDataset, franceDataset];
