ALTER TABLE `lp_users` ADD `search_text` text;--> statement-breakpoint
CREATE INDEX `lp_users_status_search_idx` ON `lp_users` (`status`,`is_admin`,`search_text`);--> statement-breakpoint
-- search_text is kept here, for every write path (the app, scripts, a restore): fold_search() is
-- registered on every connection the app opens (db/client.ts).
CREATE TRIGGER `lp_users_search_text_insert` AFTER INSERT ON `lp_users` BEGIN
  UPDATE `lp_users` SET `search_text` = fold_search(new.`name` || char(10) || new.`email` || char(10) || coalesce(new.`company`, '')) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `lp_users_search_text_update` AFTER UPDATE OF `name`, `email`, `company` ON `lp_users` BEGIN
  UPDATE `lp_users` SET `search_text` = fold_search(new.`name` || char(10) || new.`email` || char(10) || coalesce(new.`company`, '')) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
UPDATE `lp_users` SET `search_text` = fold_search(`name` || char(10) || `email` || char(10) || coalesce(`company`, ''));
