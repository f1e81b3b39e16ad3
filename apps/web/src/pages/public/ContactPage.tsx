// /contact (spec §2, §3 "Contact message", §8 "Contact form failure"): the form with name, email,
// subject and message, the 24-hour reply promise and business hours. The contract's schema checks
// the form; the server's field messages land on their fields; any other failure says to try again
// later or to email support (its address comes from the API's SUPPORT_EMAIL).
import {
  contactInfoResponseSchema,
  contactMessageRequestSchema,
  contactMessageResponseSchema,
  type ContactMessageRequest,
} from '@debesis/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { trackContactSent } from '../../analytics/contact-sent.ts';
import { api, isApiError } from '../../api/client.ts';
import { FormAlert, InputField, TextareaField } from '../../components/form/fields.tsx';
import { EmailField } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { PublicPageHeader } from './parts.tsx';
import { BusyButton } from '../../components/form/BusyButton.tsx';

export const CONTACT_PATH = '/api/v1/contact';

export function ContactPage() {
  const { t } = useTranslation('public');
  const info = useQuery({
    queryKey: ['contact-info'],
    queryFn: () => api.get(CONTACT_PATH, contactInfoResponseSchema),
  });
  const supportEmail = info.data?.support_email ?? null;
  const { field, submitTo, reset } = useContractForm({
    schema: contactMessageRequestSchema,
    defaultValues: { name: '', email: '', subject: '', message: '' },
  });
  // The server's refusals of single fields land on them (submitTo); the rest is `failure` below.
  const send = useMutation({
    mutationFn: (values: ContactMessageRequest) =>
      api.post(CONTACT_PATH, values, contactMessageResponseSchema),
    onSuccess: () => trackContactSent(),
  });

  const failure = (): string => {
    if (isApiError(send.error) && Object.keys(send.error.fieldErrors).length > 0) return send.error.message;
    if (isApiError(send.error) && send.error.status === 429) {
      return supportEmail ? t('contact.tooMany', { email: supportEmail }) : t('contact.failedNoAddress');
    }
    return supportEmail ? t('contact.failed', { email: supportEmail }) : t('contact.failedNoAddress');
  };

  return (
    <div data-testid="contact-page">
      <PublicPageHeader title={t('contact.title')} lead={t('contact.lead')} />
      <section className="section section--tight">
        <div className="container contact">
          <aside className="contact__aside" aria-label={t('contact.hoursTitle')}>
            <p className="contact__promise" data-testid="contact-reply-promise">
              {t('contact.replyPromise')}
            </p>
            <h2>{t('contact.hoursTitle')}</h2>
            <p data-testid="contact-hours">{t('contact.hours')}</p>
            <p className="text-muted">{t('contact.hoursNote')}</p>
            {supportEmail && (
              <>
                <h2>{t('contact.emailTitle')}</h2>
                <p>
                  <a href={`mailto:${supportEmail}`} data-testid="contact-support-email">
                    {supportEmail}
                  </a>
                </p>
              </>
            )}
          </aside>
          <div className="card contact__card">
            {send.isSuccess ? (
              <div data-testid="contact-sent">
                <h2>{t('contact.sentTitle')}</h2>
                <FormAlert tone="success">{t('contact.sentBody', { email: send.variables.email })}</FormAlert>
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => {
                    reset();
                    send.reset();
                  }}
                >
                  {t('contact.sendAnother')}
                </button>
              </div>
            ) : (
              <>
                <h2>{t('contact.formTitle')}</h2>
                {send.isError && (
                  <FormAlert tone="error" testId="contact-error">
                    {failure()}
                  </FormAlert>
                )}
                <form className="form" noValidate data-testid="contact-form" onSubmit={submitTo(send)}>
                  <InputField
                    id="contact-name"
                    label={t('contact.name')}
                    autoComplete="name"
                    required
                    data-testid="contact-name"
                    {...field('name')}
                  />
                  <EmailField id="contact-email" label={t('contact.email')} {...field('email')} />
                  <InputField
                    id="contact-subject"
                    label={t('contact.subject')}
                    required
                    data-testid="contact-subject"
                    {...field('subject')}
                  />
                  <TextareaField
                    id="contact-message"
                    label={t('contact.message')}
                    hint={t('contact.messageHint')}
                    rows={7}
                    required
                    data-testid="contact-message"
                    {...field('message')}
                  />
                  <BusyButton
                    busy={send.isPending}
                    label={t('contact.submit')}
                    busyLabel={t('contact.submitting')}
                    testId="contact-submit"
                  />
                </form>
              </>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
