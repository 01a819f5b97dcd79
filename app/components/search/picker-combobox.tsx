// The chunk app/utils/lazy-combobox.tsx fetches on the first interaction with a search form: Headless UI's Combobox
// and the pickers built on it, none of which the first paint or hydration needs.
export { PickerCombobox } from './combobox.tsx'
export { CategoryPicker, LocationPicker } from './pickers.tsx'
export { knownLocationLevels, locationsVersion, subscribeLocations } from './use-picker-options.ts'
