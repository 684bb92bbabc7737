-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- AlterTable
ALTER TABLE "files" ADD COLUMN "folder_path" TEXT;

-- CreateTable
CREATE TABLE "upload_folders" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT,
    "path_id" INTEGER,
    "path" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "files_folder_links" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "file_id" INTEGER NOT NULL,
    "folder_id" INTEGER NOT NULL,
    "folder_order" REAL,
    "file_order" REAL,
    CONSTRAINT "files_folder_links_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "files_folder_links_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "upload_folders" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "upload_folders_parent_links" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "folder_id" INTEGER NOT NULL,
    "inv_folder_id" INTEGER NOT NULL,
    "inv_folder_order" REAL,
    "folder_order" REAL,
    CONSTRAINT "upload_folders_parent_links_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "upload_folders" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "upload_folders_parent_links_inv_folder_id_fkey" FOREIGN KEY ("inv_folder_id") REFERENCES "upload_folders" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "upload_folders_path_id_key" ON "upload_folders"("path_id");

-- CreateIndex
CREATE INDEX "files_folder_links_folder_id_idx" ON "files_folder_links"("folder_id");

-- CreateIndex
CREATE UNIQUE INDEX "files_folder_links_file_id_key" ON "files_folder_links"("file_id");

-- CreateIndex
CREATE INDEX "upload_folders_parent_links_inv_folder_id_idx" ON "upload_folders_parent_links"("inv_folder_id");

-- CreateIndex
CREATE UNIQUE INDEX "upload_folders_parent_links_folder_id_key" ON "upload_folders_parent_links"("folder_id");
