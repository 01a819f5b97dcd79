import { useTranslation } from 'react-i18next'
import { levelAvailable, type SearchCriteria } from '#app/domain/search.ts'
import { COMPANIES_FIELDS as F, withCompaniesPlace as withPlace, type CompaniesPlace } from '#app/domain/companies-form.ts'
import { LocationPicker } from '#app/utils/lazy-combobox.tsx'
import { NoJsLocationSelect, NoJsTextInput } from '../search/no-js-pickers.tsx'
import type { CompaniesFieldErrors, CompaniesFormOptions } from './companies-form.tsx'

/** The registry is French: the place pickers list France's regions, departments and communes, as the search page does. */
const FRANCE = 'France'

/**
 * Region, department and a commune or postcode. With JavaScript the search page's comboboxes (each level inside the
 * one above, the commune's list once the department is chosen, a postcode typed as is); without, the region's
 * departments as a select (every department before a region is chosen) and the commune or postcode as text.
 */
export function PlaceFields({
  place,
  onChange,
  options,
  errors,
  enhanced,
}: {
  place: CompaniesPlace
  onChange: (place: CompaniesPlace) => void
  options: CompaniesFormOptions
  errors: CompaniesFieldErrors
  enhanced: boolean
}) {
  const { t } = useTranslation()
  const criteria: SearchCriteria = { sector: '', country: FRANCE, ...place }
  const region = { id: `companies-${F.region}`, name: F.region, label: t('search.region'), value: place.region, placeholder: t('companies.form.anyRegion'), error: errors.region }
  const department = { id: `companies-${F.department}`, name: F.department, label: t('search.department'), value: place.department, placeholder: t('companies.form.anyDepartment'), error: errors.department }
  const city = { id: `companies-${F.city}`, name: F.city, label: t('companies.form.city'), placeholder: t('companies.form.cityPlaceholder'), hint: t('companies.form.cityHint'), error: errors.city }
  return (
    // The border sits on a wrapper: a fieldset draws its legend inside its top border, which left a gap under the title.
    <div className="border-t border-slate-100 pt-5">
      <fieldset className="space-y-4">
        <legend className="text-base font-semibold text-slate-900">{t('companies.form.place')}</legend>
        <div className="grid items-start gap-4 md:grid-cols-3">
          {enhanced ? (
            <>
              <LocationPicker {...region} level="region" parents={{ countryName: FRANCE }} enabled disabledText="" onChange={(value) => onChange(withPlace(place, 'region', value))} />
              <LocationPicker
                {...department}
                level="department"
                parents={{ countryName: FRANCE, regionName: place.region }}
                enabled={levelAvailable('department', criteria)}
                disabledText={t('search.needRegion')}
                onChange={(value) => onChange(withPlace(place, 'department', value))}
              />
              <LocationPicker
                {...city}
                level="city"
                value={place.city}
                parents={{ countryName: FRANCE, regionName: place.region, departmentName: place.department }}
                // A postcode or a commune's name can be typed anywhere in France: the list only helps once it can load.
                enabled
                listed={levelAvailable('city', criteria)}
                allowTyped
                disabledText=""
                onChange={(value) => onChange(withPlace(place, 'city', value))}
              />
            </>
          ) : (
            <NoJsPlaceFields place={place} options={options} region={region} department={department} city={city} />
          )}
        </div>
        <p className="text-xs text-slate-500">{t('companies.form.planHint')}</p>
      </fieldset>
    </div>
  )
}

function NoJsPlaceFields({
  place,
  options,
  region,
  department,
  city,
}: {
  place: CompaniesPlace
  options: CompaniesFormOptions
  region: Omit<React.ComponentProps<typeof NoJsLocationSelect>, 'options'>
  department: Omit<React.ComponentProps<typeof NoJsLocationSelect>, 'options'>
  city: Omit<React.ComponentProps<typeof NoJsTextInput>, 'value'>
}) {
  const regionCode = options.regions.find((r) => r.name === place.region)?.code
  // One page load picks both: the region's departments once it is known, every department before.
  const departments = regionCode ? options.departments.filter((d) => d.region === regionCode) : options.departments
  return (
    <>
      <NoJsLocationSelect {...region} options={options.regions} />
      <NoJsLocationSelect {...department} options={departments} />
      <NoJsTextInput {...city} value={place.city} />
    </>
  )
}
