// The owner's own account: profile, settings and the one-way conversion to a business account.
import type {
  BusinessDetails,
  Settings,
  UpdateSettingsRequest,
  UpdateUserRequest,
  User,
} from '@debesis/contract';
import { AppError, notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { assertVatNumber } from '../vies/vat-number.ts';
import { presentSettings, presentUser } from './users.presenter.ts';
import type { UsersQueries, UserWithSettings } from './users.queries.ts';

export interface RequestMeta {
  ip: string | null;
}

export function createUsersService(deps: {
  queries: UsersQueries;
  activity: Pick<ActivityService, 'record'>;
}) {
  async function load(userId: string) {
    const user = await deps.queries.findById(userId);
    if (!user) throw notFound();
    return user;
  }

  return {
    /** `loaded`: the account as the request's session read it (Authenticated.account), if any. */
    async me(userId: string, loaded?: UserWithSettings): Promise<User> {
      return presentUser(loaded?.id === userId ? loaded : await load(userId));
    },

    /**
     * The profile country is the account's to change; VAT does not follow it (billing info does, with
     * evidence: orders/vat-situation.ts). An account that registered without a country keeps the
     * first one it sets as its registration country.
     */
    async updateMe(userId: string, changes: UpdateUserRequest, meta: RequestMeta): Promise<User> {
      const user = await load(userId);
      const { theme, language, notification_email, notification_browser, ...profile } = changes;
      await deps.queries.update(userId, {
        ...(profile.first_name !== undefined ? { firstName: profile.first_name } : {}),
        ...(profile.last_name !== undefined ? { lastName: profile.last_name } : {}),
        ...(profile.phone !== undefined ? { phone: profile.phone } : {}),
        ...(profile.country !== undefined ? { country: profile.country } : {}),
        ...(profile.country && !user.registrationCountry
          ? { registrationCountry: user.country ?? profile.country }
          : {}),
        ...(profile.address !== undefined ? { address: profile.address } : {}),
      });
      await deps.queries.updateSettings(userId, {
        ...(theme !== undefined ? { theme } : {}),
        ...(language !== undefined ? { language } : {}),
        ...(notification_email !== undefined ? { notificationEmail: notification_email } : {}),
        ...(notification_browser !== undefined ? { notificationBrowser: notification_browser } : {}),
      });
      await deps.activity.record({
        accountId: userId,
        action: 'settings updated',
        tone: 'info',
        ip: meta.ip,
        details: { fields: Object.keys(changes) },
      });
      return presentUser(await load(userId));
    },

    async settings(userId: string): Promise<Settings> {
      return presentSettings((await load(userId)).settings);
    },

    async updateSettings(
      userId: string,
      changes: UpdateSettingsRequest,
      meta: RequestMeta,
    ): Promise<Settings> {
      await load(userId);
      await deps.queries.updateSettings(userId, {
        ...(changes.theme !== undefined ? { theme: changes.theme } : {}),
        ...(changes.language !== undefined ? { language: changes.language } : {}),
        ...(changes.notifications?.email !== undefined
          ? { notificationEmail: changes.notifications.email }
          : {}),
        ...(changes.notifications?.browser !== undefined
          ? { notificationBrowser: changes.notifications.browser }
          : {}),
      });
      await deps.activity.record({
        accountId: userId,
        action: 'settings updated',
        tone: 'info',
        ip: meta.ip,
        details: { fields: Object.keys(changes) },
      });
      return presentSettings((await load(userId)).settings);
    },

    /** Permanent: a business account cannot go back (its details: correctCompany). */
    async convertToBusiness(userId: string, details: BusinessDetails, meta: RequestMeta): Promise<User> {
      await load(userId);
      assertVatNumber(details.vat_number, details.country, 'business_details.vat_number');
      const converted = await deps.queries.convertToBusiness(userId, companyFromDetails(details));
      if (!converted) throw new AppError('already_business');
      await deps.activity.record({
        accountId: userId,
        action: 'account converted to business',
        tone: 'success',
        ip: meta.ip,
        details: { business_name: details.business_name },
      });
      return presentUser(await load(userId));
    },

    /**
     * A typo in the company details is the owner's to fix while nothing was invoiced to them; an
     * issued invoice is a legal document, so from then on the details change only through support.
     */
    async correctCompany(userId: string, details: BusinessDetails, meta: RequestMeta): Promise<User> {
      const user = await load(userId);
      if (user.accountType !== 'business') throw new AppError('not_business_account');
      assertVatNumber(details.vat_number, details.country, 'business_details.vat_number');
      const corrected = await deps.queries.correctCompany(userId, companyFromDetails(details));
      if (!corrected) throw new AppError('company_details_locked');
      await deps.activity.record({
        accountId: userId,
        action: 'company details corrected',
        tone: 'info',
        ip: meta.ip,
        details: { business_name: details.business_name },
      });
      return presentUser(await load(userId));
    },
  };
}

export function companyFromDetails(details: BusinessDetails) {
  return {
    name: details.business_name,
    code: details.business_code,
    vat_number: details.vat_number ?? null,
    country: details.country,
    address: details.address,
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
