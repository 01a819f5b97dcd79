import { expect, test } from '@playwright/test'
import { nextDocumentPost, sameOrigin, signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('settings', () => {
  test('editing the profile saves it and a reload keeps it', async ({ page, baseURL }, testInfo) => {
    const user = await signUpViaRequest(page, baseURL, { email: uniqueEmail('settings', testInfo) })
    await page.goto('/settings')
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible()
    await expect(page.getByLabel('Email')).toHaveValue(user.email)
    await expect(page.getByLabel('Email')).not.toBeEditable()
    await expect(page.getByText('Your email address cannot be changed.')).toBeVisible()

    await page.getByLabel('First name').fill('Grace')
    await page.getByLabel('Last name').fill('Hopper')
    await page.getByLabel('Company name').fill('Navy Labs')
    await page.getByLabel('Phone number').fill('+1 555 0100')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Your profile has been updated successfully.' })).toBeVisible()
    await expect(page.getByLabel('First name')).toHaveValue('Grace')

    await page.reload()
    await expect(page.getByLabel('First name')).toHaveValue('Grace')
    await expect(page.getByLabel('Last name')).toHaveValue('Hopper')
    await expect(page.getByLabel('Company name')).toHaveValue('Navy Labs')
    await expect(page.getByLabel('Phone number')).toHaveValue('+1 555 0100')
    // The success message belongs to the save, not to the page.
    await expect(page.getByText('Your profile has been updated successfully.')).toHaveCount(0)

    // Clearing a field stores it empty.
    await page.getByLabel('Phone number').fill('')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('Your profile has been updated successfully.')).toBeVisible()
    await page.goto('/settings')
    await expect(page.getByLabel('Phone number')).toHaveValue('')
    await expect(page.getByLabel('First name')).toHaveValue('Grace')
  })

  test('a field over 120 characters is refused (400) without losing the other values', async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('toolong', testInfo) })
    await page.goto('/settings')
    const tooLong = 'x'.repeat(121)
    await page.getByLabel('First name').fill('Katherine')
    await page.getByLabel('Last name').fill('Johnson')
    await page.getByLabel('Company name').fill(tooLong)
    const post = javaScriptEnabled ? null : nextDocumentPost(page, '/settings')
    await page.getByRole('button', { name: 'Save changes' }).click()
    if (post) expect((await post).status()).toBe(400)
    await expect(page.getByText('This field is too long (maximum 120 characters).')).toBeVisible()
    await expect(page.getByLabel('Company name')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('First name')).toHaveValue('Katherine')
    await expect(page.getByLabel('Last name')).toHaveValue('Johnson')
    await expect(page.getByLabel('Company name')).toHaveValue(tooLong)
    await expect(page.getByText('Your profile has been updated successfully.')).toHaveCount(0)

    // The server refuses it too, whatever the browser does.
    const response = await page.request.post('/settings', {
      form: { firstName: 'Katherine', lastName: 'Johnson', companyName: tooLong, phone: '' },
      headers: sameOrigin(baseURL),
    })
    expect(response.status()).toBe(400)
    await page.goto('/settings')
    await expect(page.getByLabel('First name')).toHaveValue('')
    await expect(page.getByLabel('Company name')).toHaveValue('')
  })
})
