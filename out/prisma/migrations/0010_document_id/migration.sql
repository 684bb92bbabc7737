-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- AlterTable
ALTER TABLE "articles" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "authors" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "categories" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "globals" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "tags" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "i18n_locale" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "files" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "upload_folders" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "up_permissions" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "up_roles" ADD COLUMN "document_id" TEXT;

-- AlterTable
ALTER TABLE "up_users" ADD COLUMN "document_id" TEXT;

-- api::article.article: every entry gets a documentId
UPDATE "articles" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- api::author.author: every entry gets a documentId
UPDATE "authors" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- api::category.category: every entry gets a documentId
UPDATE "categories" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- api::global.global: every entry gets a documentId
UPDATE "globals" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- api::tag.tag: every entry gets a documentId
UPDATE "tags" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- plugin::i18n.locale: every entry gets a documentId
UPDATE "i18n_locale" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- plugin::upload.file: every entry gets a documentId
UPDATE "files" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- plugin::upload.folder: every entry gets a documentId
UPDATE "upload_folders" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- plugin::users-permissions.permission: every entry gets a documentId
UPDATE "up_permissions" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- plugin::users-permissions.role: every entry gets a documentId
UPDATE "up_roles" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- plugin::users-permissions.user: every entry gets a documentId
UPDATE "up_users" SET "document_id" = substr('abcdefghijklmnopqrstuvwxyz', 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23) WHERE "document_id" IS NULL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_articles" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "title" TEXT,
    "slug" TEXT,
    "description" TEXT,
    "content" TEXT,
    "status" TEXT,
    "views" INTEGER,
    "rating" REAL,
    "price" DECIMAL,
    "impressions" BIGINT,
    "featured" BOOLEAN,
    "publish_date" DATETIME,
    "reading_time" DATETIME,
    "last_reviewed_at" DATETIME,
    "metadata" JSONB,
    "editor_note" TEXT,
    "seo" JSONB,
    "links" JSONB,
    "blocks" JSONB,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "published_at" DATETIME
);
INSERT INTO "new_articles" ("blocks", "content", "created_at", "description", "document_id", "editor_note", "featured", "id", "impressions", "last_reviewed_at", "links", "metadata", "price", "publish_date", "published_at", "rating", "reading_time", "seo", "slug", "status", "title", "updated_at", "views") SELECT "blocks", "content", "created_at", "description", "document_id", "editor_note", "featured", "id", "impressions", "last_reviewed_at", "links", "metadata", "price", "publish_date", "published_at", "rating", "reading_time", "seo", "slug", "status", "title", "updated_at", "views" FROM "articles";
DROP TABLE "articles";
ALTER TABLE "new_articles" RENAME TO "articles";
CREATE UNIQUE INDEX "articles_document_id_key" ON "articles"("document_id");
CREATE UNIQUE INDEX "articles_slug_key" ON "articles"("slug");
CREATE INDEX "articles_published_at_idx" ON "articles"("published_at");
CREATE TABLE "new_authors" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "bio" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_authors" ("bio", "created_at", "document_id", "email", "id", "name", "updated_at") SELECT "bio", "created_at", "document_id", "email", "id", "name", "updated_at" FROM "authors";
DROP TABLE "authors";
ALTER TABLE "new_authors" RENAME TO "authors";
CREATE UNIQUE INDEX "authors_document_id_key" ON "authors"("document_id");
CREATE UNIQUE INDEX "authors_email_key" ON "authors"("email");
CREATE TABLE "new_categories" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "slug" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_categories" ("created_at", "document_id", "id", "name", "slug", "updated_at") SELECT "created_at", "document_id", "id", "name", "slug", "updated_at" FROM "categories";
DROP TABLE "categories";
ALTER TABLE "new_categories" RENAME TO "categories";
CREATE UNIQUE INDEX "categories_document_id_key" ON "categories"("document_id");
CREATE UNIQUE INDEX "categories_name_key" ON "categories"("name");
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");
CREATE TABLE "new_globals" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "site_name" TEXT,
    "site_description" TEXT,
    "default_seo" JSONB,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_globals" ("created_at", "default_seo", "document_id", "id", "site_description", "site_name", "updated_at") SELECT "created_at", "default_seo", "document_id", "id", "site_description", "site_name", "updated_at" FROM "globals";
DROP TABLE "globals";
ALTER TABLE "new_globals" RENAME TO "globals";
CREATE UNIQUE INDEX "globals_document_id_key" ON "globals"("document_id");
CREATE TABLE "new_tags" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_tags" ("created_at", "document_id", "id", "name", "updated_at") SELECT "created_at", "document_id", "id", "name", "updated_at" FROM "tags";
DROP TABLE "tags";
ALTER TABLE "new_tags" RENAME TO "tags";
CREATE UNIQUE INDEX "tags_document_id_key" ON "tags"("document_id");
CREATE UNIQUE INDEX "tags_name_key" ON "tags"("name");
CREATE TABLE "new_i18n_locale" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "code" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_i18n_locale" ("code", "created_at", "document_id", "id", "name", "updated_at") SELECT "code", "created_at", "document_id", "id", "name", "updated_at" FROM "i18n_locale";
DROP TABLE "i18n_locale";
ALTER TABLE "new_i18n_locale" RENAME TO "i18n_locale";
CREATE UNIQUE INDEX "i18n_locale_document_id_key" ON "i18n_locale"("document_id");
CREATE UNIQUE INDEX "i18n_locale_code_key" ON "i18n_locale"("code");
CREATE TABLE "new_files" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "alternative_text" TEXT,
    "caption" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "formats" JSONB,
    "hash" TEXT,
    "ext" TEXT,
    "mime" TEXT,
    "size" DECIMAL,
    "url" TEXT,
    "preview_url" TEXT,
    "provider" TEXT,
    "provider_metadata" JSONB,
    "folder_path" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_files" ("alternative_text", "caption", "created_at", "document_id", "ext", "folder_path", "formats", "hash", "height", "id", "mime", "name", "preview_url", "provider", "provider_metadata", "size", "updated_at", "url", "width") SELECT "alternative_text", "caption", "created_at", "document_id", "ext", "folder_path", "formats", "hash", "height", "id", "mime", "name", "preview_url", "provider", "provider_metadata", "size", "updated_at", "url", "width" FROM "files";
DROP TABLE "files";
ALTER TABLE "new_files" RENAME TO "files";
CREATE UNIQUE INDEX "files_document_id_key" ON "files"("document_id");
CREATE TABLE "new_upload_folders" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "path_id" INTEGER,
    "path" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_upload_folders" ("created_at", "document_id", "id", "name", "path", "path_id", "updated_at") SELECT "created_at", "document_id", "id", "name", "path", "path_id", "updated_at" FROM "upload_folders";
DROP TABLE "upload_folders";
ALTER TABLE "new_upload_folders" RENAME TO "upload_folders";
CREATE UNIQUE INDEX "upload_folders_document_id_key" ON "upload_folders"("document_id");
CREATE UNIQUE INDEX "upload_folders_path_id_key" ON "upload_folders"("path_id");
CREATE TABLE "new_up_permissions" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "action" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_up_permissions" ("action", "created_at", "document_id", "id", "updated_at") SELECT "action", "created_at", "document_id", "id", "updated_at" FROM "up_permissions";
DROP TABLE "up_permissions";
ALTER TABLE "new_up_permissions" RENAME TO "up_permissions";
CREATE UNIQUE INDEX "up_permissions_document_id_key" ON "up_permissions"("document_id");
CREATE TABLE "new_up_roles" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "type" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_up_roles" ("created_at", "description", "document_id", "id", "name", "type", "updated_at") SELECT "created_at", "description", "document_id", "id", "name", "type", "updated_at" FROM "up_roles";
DROP TABLE "up_roles";
ALTER TABLE "new_up_roles" RENAME TO "up_roles";
CREATE UNIQUE INDEX "up_roles_document_id_key" ON "up_roles"("document_id");
CREATE UNIQUE INDEX "up_roles_type_key" ON "up_roles"("type");
CREATE TABLE "new_up_users" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "document_id" TEXT NOT NULL,
    "username" TEXT,
    "email" TEXT,
    "provider" TEXT,
    "password" TEXT,
    "reset_password_token" TEXT,
    "confirmation_token" TEXT,
    "confirmed" BOOLEAN,
    "blocked" BOOLEAN,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_up_users" ("blocked", "confirmation_token", "confirmed", "created_at", "document_id", "email", "id", "password", "provider", "reset_password_token", "updated_at", "username") SELECT "blocked", "confirmation_token", "confirmed", "created_at", "document_id", "email", "id", "password", "provider", "reset_password_token", "updated_at", "username" FROM "up_users";
DROP TABLE "up_users";
ALTER TABLE "new_up_users" RENAME TO "up_users";
CREATE UNIQUE INDEX "up_users_document_id_key" ON "up_users"("document_id");
CREATE UNIQUE INDEX "up_users_username_key" ON "up_users"("username");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
