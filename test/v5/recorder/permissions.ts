/** What each recorded set's Strapi 5 grants beyond its models' permissions.json (record.ts, and the v5 dialect's tests). */
const upload = ['plugin::upload.content-api.upload', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne', 'plugin::upload.content-api.destroy'];

export const extraPermissions: Record<'blog' | 'blog-v4compat' | 'i18n', Record<string, string[]>> = {
  blog: {
    public: ['plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'],
    authenticated: [...upload, 'plugin::users-permissions.user.me', 'plugin::users-permissions.user.find', 'plugin::users-permissions.user.findOne', 'plugin::users-permissions.role.find', 'api::tag.tag.create'],
  },
  'blog-v4compat': {},
  i18n: { public: ['api::page.page.create', 'api::page.page.update'], authenticated: upload },
};
