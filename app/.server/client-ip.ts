export { clientIp } from './internal-headers.ts'
