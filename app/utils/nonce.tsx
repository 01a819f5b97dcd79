import { createContext, useContext } from 'react'

// The CSP nonce of this response (server only; the client renders no inline scripts of its own).
const NonceContext = createContext<string | undefined>(undefined)

export const NonceProvider = NonceContext.Provider

export function useNonce(): string | undefined {
  return useContext(NonceContext)
}
