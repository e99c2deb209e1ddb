// The back office's entry (/operateur and every path below it: dist/operateur.html): goober, the services of
// src/backoffice/wiring with the real API, then the app. Nothing of the customer portal's startup runs here.
import '../views/goober.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { navigate } from 'wouter/use-browser-location'
import { configureBackOfficeApi } from './api/client.ts'
import * as companyApi from './api/company.ts'
import * as mailApi from './api/mail.ts'
import * as notificationsApi from './api/notifications.ts'
import * as billingApi from './api/billing.ts'
import * as operatorsApi from './api/operators.ts'
import { BackOfficeApp } from './views/App.tsx'
import { createBackOfficeServices } from './wiring/services.ts'
import { API_BASE_URL } from './wiring/config.ts'

configureBackOfficeApi({ baseURL: API_BASE_URL })

const services = createBackOfficeServices({
  api: { ...operatorsApi, ...mailApi, ...companyApi, ...notificationsApi, ...billingApi, configureBackOfficeApi },
  // The toast library comes with the first toast.
  notify: (notice) => void import('../views/Toasts.tsx').then((m) => m.showToast(notice)),
  currentPath: () => window.location.pathname + window.location.search,
  navigate: (path) => navigate(path),
  saveFile: (file, name) => {
    const url = URL.createObjectURL(file)
    const link = Object.assign(document.createElement('a'), { href: url, download: name })
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BackOfficeApp services={services} />
  </StrictMode>,
)
