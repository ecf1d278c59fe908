-- The admin's investor search also finds an investor by reference code (issue 15): search_text
-- becomes name, e-mail, company and reference code, folded, one per line. The triggers of 0007
-- are replaced by the same ones over the four fields, and every row is filled in again.
DROP TRIGGER IF EXISTS `lp_users_search_text_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `lp_users_search_text_update`;
--> statement-breakpoint
CREATE TRIGGER `lp_users_search_text_insert` AFTER INSERT ON `lp_users` BEGIN
  UPDATE `lp_users` SET `search_text` = fold_search(new.`name` || char(10) || new.`email` || char(10) || coalesce(new.`company`, '') || char(10) || coalesce(new.`reference_code`, '')) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `lp_users_search_text_update` AFTER UPDATE OF `name`, `email`, `company`, `reference_code` ON `lp_users` BEGIN
  UPDATE `lp_users` SET `search_text` = fold_search(new.`name` || char(10) || new.`email` || char(10) || coalesce(new.`company`, '') || char(10) || coalesce(new.`reference_code`, '')) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
UPDATE `lp_users` SET `search_text` = fold_search(`name` || char(10) || `email` || char(10) || coalesce(`company`, '') || char(10) || coalesce(`reference_code`, ''));
