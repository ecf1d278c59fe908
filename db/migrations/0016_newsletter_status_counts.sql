CREATE TABLE `newsletter_status_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
-- Kept by triggers on newsletter_subscribers (every write path, seeds and restores included).
INSERT INTO `newsletter_status_counts` (`status`, `n`) SELECT `status`, count(*) FROM `newsletter_subscribers` GROUP BY `status`;--> statement-breakpoint
CREATE TRIGGER `newsletter_status_counts_insert` AFTER INSERT ON `newsletter_subscribers` BEGIN
	INSERT INTO `newsletter_status_counts` (`status`, `n`) VALUES (NEW.`status`, 1) ON CONFLICT (`status`) DO UPDATE SET `n` = `n` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `newsletter_status_counts_delete` AFTER DELETE ON `newsletter_subscribers` BEGIN
	UPDATE `newsletter_status_counts` SET `n` = `n` - 1 WHERE `status` = OLD.`status`;
END;--> statement-breakpoint
CREATE TRIGGER `newsletter_status_counts_update` AFTER UPDATE OF `status` ON `newsletter_subscribers` WHEN OLD.`status` IS NOT NEW.`status` BEGIN
	UPDATE `newsletter_status_counts` SET `n` = `n` - 1 WHERE `status` = OLD.`status`;
	INSERT INTO `newsletter_status_counts` (`status`, `n`) VALUES (NEW.`status`, 1) ON CONFLICT (`status`) DO UPDATE SET `n` = `n` + 1;
END;
