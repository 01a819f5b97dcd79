import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSubmit } from 'react-router'
import type { PlanId } from '#app/domain/plans.ts'
import { validateSearch, type SearchCriteria } from '#app/domain/search.ts'
import { knownLocationLevels } from '#app/utils/lazy-combobox.tsx'

/**
 * The criteria the form shows. A new server answer (navigation, reload) resets them to what the URL says;
 * not the first one: the form starts from it, and what was chosen before hydration must stay over it.
 * Changing the interface language clears the chosen category (SPEC §4).
 */
export function useSearchCriteria(served: { criteria: SearchCriteria; categoryLabel: string }) {
  const { i18n } = useTranslation()
  const [criteria, setCriteria] = useState(served.criteria)
  const [categoryLabel, setCategoryLabel] = useState(served.categoryLabel)
  const answered = useRef(served.criteria)
  useEffect(() => {
    if (answered.current === served.criteria) return
    answered.current = served.criteria
    setCriteria(served.criteria)
    setCategoryLabel(served.categoryLabel)
  }, [served.criteria, served.categoryLabel])

  const [language, setLanguage] = useState(i18n.language)
  useEffect(() => {
    if (language === i18n.language) return
    setLanguage(i18n.language)
    setCriteria((current) => ({ ...current, sector: '' }))
    setCategoryLabel('')
  }, [i18n.language, language])

  const onCriteriaChange = (next: SearchCriteria, label?: string) => {
    setCriteria(next)
    if (label !== undefined) setCategoryLabel(label)
  }
  return { criteria, categoryLabel, onCriteriaChange }
}

export interface PlanRefusal {
  messageKey: string
  modalKey: string
}

/**
 * With JavaScript the plan rule is checked before any request: `onPlanRefusal` opens the modal in place.
 * Like the server, it does not require a level the chosen place has no data for (Germany has no
 * departments); a level whose list is still loading is left to the server to judge. Empty fields stay
 * out of the URL.
 */
export function useRunSearch(criteria: SearchCriteria, plan: PlanId, onPlanRefusal: (refusal: PlanRefusal) => void) {
  const { i18n } = useTranslation()
  const submit = useSubmit()
  return (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const levels = knownLocationLevels(criteria, i18n.language)
    const validation = validateSearch(criteria, plan, levels)
    if (!validation.ok && !(validation.reason === 'plan' && levels[validation.missing] === undefined)) {
      if (validation.reason === 'plan') onPlanRefusal({ messageKey: validation.messageKey, modalKey: validation.modalKey })
      return
    }
    const formData = new FormData(event.currentTarget)
    formData.set('run', '1')
    for (const [key, value] of [...formData.entries()]) if (value === '') formData.delete(key)
    void submit(formData, { method: 'get', action: '/' })
  }
}
