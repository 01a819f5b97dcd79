import { useEffect, useState } from 'react'
import { useFormAction, useNavigation } from 'react-router'

export function cn(...classes: Array<string | false | null | undefined>) {
  return classes.filter(Boolean).join(' ')
}

/** True once React has hydrated: controls that need JavaScript render only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

/**
 * Whether a form submission to this route (or `formAction`) is in flight — for pending buttons.
 * Matching on `intent` distinguishes several forms posting to one action.
 */
export function useIsPending({ formAction, formMethod = 'POST', intent }: { formAction?: string; formMethod?: 'POST' | 'GET'; intent?: string } = {}) {
  const contextualFormAction = useFormAction()
  const navigation = useNavigation()
  const isPendingState = formMethod === 'GET' ? navigation.state === 'loading' : navigation.state === 'submitting'
  return (
    isPendingState &&
    navigation.formAction === (formAction ?? contextualFormAction) &&
    navigation.formMethod === formMethod &&
    (intent === undefined || navigation.formData?.get('intent') === intent)
  )
}
